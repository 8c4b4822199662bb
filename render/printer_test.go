package render

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTerminalSafe: no control sequence gets through conch's own output,
// in words, in an error line or in JSON (rule 10 of issue 12).
func TestTerminalSafe(t *testing.T) {
	in := "a\x1b[31mb\x07c\x08d\x7fe\u009bf\u009dg\r\nh\ti"
	if got, want := Terminal(in), "a [31mb c d e f g \nh\ti"; got != want {
		t.Errorf("Terminal = %q, want %q", got, want)
	}
	if got, want := Line(in), "a [31mb c d e f g  h i"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	data, _ := json.Marshal(map[string]string{"v": in})
	out := string(EscapeJSONControls(data))
	if strings.ContainsFunc(out, isTerminalControl) {
		t.Errorf("JSON keeps a control: %q", out)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(out), &back); err != nil || back["v"] != in {
		t.Errorf("JSON changed the value: %q (%v)", back["v"], err)
	}
	if s := "plain\ntext"; Terminal(s) != s || string(EscapeJSONControls([]byte(s))) != s {
		t.Error("plain text changed")
	}
}
