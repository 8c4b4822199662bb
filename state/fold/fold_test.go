package fold

import "testing"

func TestMapSpan(t *testing.T) {
	s := "key ｇｈｐ_ab\u200bcd end"
	m := Map(s)
	if m.Folded != "key ghp_abcd end" {
		t.Fatalf("Map(%q).Folded = %q", s, m.Folded)
	}
	a, b := m.Span(4, 12) // "ghp_abcd"
	if got := s[a:b]; got != "ｇｈｐ_ab\u200bcd" {
		t.Errorf("Span = %q", got)
	}
	if m := Map("plain"); m.Folded != "plain" {
		t.Errorf("ASCII folded to %q", m.Folded)
	}
}
