package state

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAddSourceBounds(t *testing.T) {
	var list []string
	for i := 0; i < 40; i++ {
		list, _ = addSource(list, strings.Repeat("s", i+1))
	}
	if len(list) != MaxTaintSources || list[len(list)-1] != moreTaintSources {
		t.Fatalf("%d sources, last %q", len(list), list[len(list)-1])
	}
	if l, added := addSource(nil, strings.Repeat("é", MaxTaintSource)); !added || len(l[0]) > MaxTaintSource || !utf8.ValidString(l[0]) {
		t.Fatalf("a long source is kept as %d bytes", len(l[0]))
	}
	if got := tailOf("héllo", 4); got != "llo" {
		t.Errorf("tailOf = %q", got)
	}
	for _, n := range []string{"telegram", "a.b_c-D9", strings.Repeat("x", 32)} {
		if !validAppName(n) {
			t.Errorf("%q refused", n)
		}
	}
	for _, n := range []string{"", "a b", "a/b", "x]", "ｔ", strings.Repeat("x", 33)} {
		if validAppName(n) {
			t.Errorf("%q taken", n)
		}
	}
}
