package install

import (
	"encoding/json"
	"strings"
	"testing"
)

// flatHooks is a hooks file of the flat kind (handlers straight in each
// event's list, a "version" at the top, the command under "bash"), as
// GitHub Copilot CLI's are.
func flatHooks() Hooks {
	return Hooks{
		Harness: "copilot", Command: Command("conch", "copilot"),
		Events: []Event{{Name: "sessionStart", Timeout: 10}, {Name: "preToolUse", Timeout: 10}},
		Flat:   true, CommandKey: "bash", TimeoutKey: "timeoutSec",
		Top: []Field{{"version", json.RawMessage("1")}},
	}
}

// groupedHooks is a hooks file of the grouped kind (each event's list
// holds groups of a matcher and its handlers), as Claude Code's is.
func groupedHooks() Hooks {
	h := Hooks{Harness: "claude", Command: Command("conch", "claude")}
	for _, e := range []struct{ name, matcher string }{
		{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PreToolUse", "*"}, {"PostToolUse", "*"}, {"Stop", ""}, {"SessionEnd", ""},
	} {
		h.Events = append(h.Events, Event{Name: e.name, Matcher: e.matcher, Timeout: HookTimeout})
	}
	return h
}

// Putting conch's hooks in twice is putting them in once; taking them out
// leaves the file as it was before, byte for byte, for both kinds of
// hooks file.
func TestMergeRoundTrip(t *testing.T) {
	grouped := groupedHooks()
	for _, c := range []struct {
		name  string
		hooks Hooks
		file  string
	}{
		{"grouped", grouped, `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "~/bin/guard.sh"}]
      }
    ]
  }
}
`},
		{"flat", flatHooks(), `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {"type": "command", "bash": "./lint.sh"}
    ]
  }
}
`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, changed, err := c.hooks.Merge([]byte(c.file), false)
			if err != nil || !changed {
				t.Fatalf("put in: changed %v, %v", changed, err)
			}
			if !c.hooks.Has(in) || strings.Count(string(in), "conch hook") != len(c.hooks.Events) {
				t.Fatalf("not one handler of conch's an event:\n%s", in)
			}
			if !strings.Contains(string(in), "guard.sh") && !strings.Contains(string(in), "lint.sh") {
				t.Fatalf("the person's handler went:\n%s", in)
			}
			again, changed, err := c.hooks.Merge(in, false)
			if err != nil || changed || string(again) != string(in) {
				t.Fatalf("again: changed %v, %v:\n%s", changed, err, again)
			}
			out, changed, err := c.hooks.Merge(in, true)
			if err != nil || !changed || string(out) != c.file {
				t.Fatalf("taken out: changed %v, %v:\n%s", changed, err, out)
			}
			if _, changed, _ := c.hooks.Merge(out, true); changed {
				t.Fatal("taken out twice changed the file again")
			}
		})
	}
}

// A flat file made new starts with its format's top fields, and each
// handler has the keys that format names.
func TestMergeFlatNew(t *testing.T) {
	out, _, err := flatHooks().Merge(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Version int
		Hooks   map[string][]map[string]any
	}
	if err := json.Unmarshal(out, &file); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	h := file.Hooks["preToolUse"]
	if file.Version != 1 || len(h) != 1 || h[0]["bash"] != "conch hook copilot" || h[0]["timeoutSec"] != 10.0 || h[0]["type"] != "command" {
		t.Fatalf("new flat file:\n%s", out)
	}
}

// conch's handler with another timeout, or a second one, is brought back
// to one, as this install writes it.
func TestMergeUpdates(t *testing.T) {
	file := `{"hooks": {"Stop": [
  {"hooks": [{"type": "command", "command": "conch hook claude", "timeout": 60}]},
  {"hooks": [{"type": "command", "command": "/bin/conch hook claude", "timeout": 10}, {"type": "command", "command": "say done"}]}
]}}`
	h := Hooks{Harness: "claude", Command: "conch hook claude", Events: []Event{{Name: "Stop", Timeout: 10}}}
	out, changed, err := h.Merge([]byte(file), false)
	if err != nil || !changed {
		t.Fatalf("changed %v, %v", changed, err)
	}
	if n := strings.Count(string(out), "hook claude"); n != 1 || !strings.Contains(string(out), `"timeout": 10`) || !strings.Contains(string(out), "say done") {
		t.Fatalf("%d handlers of conch's:\n%s", n, out)
	}
}

// What is not a hooks file is refused, named.
func TestMergeRefuses(t *testing.T) {
	h := groupedHooks()
	for file, want := range map[string]string{
		`{`:                       "not JSON",
		`[1]`:                     "not a JSON object",
		`{"hooks": 1}`:            `its "hooks" is not an object`,
		`{"hooks": {"Stop": {}}}`: "its hooks.Stop is not a list",
		`{"a": 1} {"b": 2}`:       "more after the object",
	} {
		if _, _, err := h.Merge([]byte(file), false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", file, err, want)
		}
	}
}

// Whatever a file holds, an install that succeeds writes JSON that holds
// conch's handlers once, a second install changes nothing, and a removal
// leaves none of them and is itself final.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"hooks": {"Stop": [{"hooks": [{"command": "say done"}]}]}}`), false)
	f.Add([]byte(`{"version": 1, "hooks": {"preToolUse": [{"bash": "conch hook copilot"}, 3]}}`), true)
	f.Add([]byte(`{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"command": "'/x y/conch' hook claude", "timeout": 2}]}, "x"]}}`), false)
	f.Add([]byte(``), true)
	f.Fuzz(func(t *testing.T, data []byte, flat bool) {
		h := groupedHooks()
		if flat {
			h = flatHooks()
		}
		in, _, err := h.Merge(data, false)
		if err != nil {
			return
		}
		if !json.Valid(in) || !h.Has(in) {
			t.Fatalf("put in, not JSON or no conch:\n%s", in)
		}
		if again, changed, err := h.Merge(in, false); err != nil || changed || string(again) != string(in) {
			t.Fatalf("again: changed %v, %v", changed, err)
		}
		out, _, err := h.Merge(in, true)
		if err != nil || !json.Valid(out) || h.Has(out) {
			t.Fatalf("taken out: %v:\n%s", err, out)
		}
	})
}
