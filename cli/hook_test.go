package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/conch-sh/conch/lock"
)

// hookEnv is an Env for running a hook in this process, over a home of its
// own.
func hookEnv(t *testing.T, home string, input string) (Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errs bytes.Buffer
	env := Env{
		In: strings.NewReader(input), Out: &out, Err: &errs,
		Getenv: func(k string) string {
			switch k {
			case "CONCH_HOME":
				return home
			case "HOME":
				return t.TempDir()
			}
			return ""
		},
		Now: time.Now, Hostname: "test", Cwd: t.TempDir(), PPID: os.Getpid(),
	}
	return env, &out, &errs
}

// TestHookLockedHome: a home another command holds locked is waited on for
// a second at most; then the hook answers nothing, warns once, and exits 0.
func TestHookLockedHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	unlock, err := lock.Exclusive(context.Background(), filepath.Join(home, "conch.lock"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	input := `{"session_id":"S","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"hi"}`
	env, out, errs := hookEnv(t, home, input)
	if code := Main([]string{"hook", "claude"}, env); code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	if out.Len() != 0 {
		t.Errorf("answered %q while the home was locked", out)
	}
	want := "conch: warning: hook claude UserPromptSubmit: lock " + filepath.Join(home, "conch.lock") + " not had in 1s"
	if got := errs.String(); !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 1 {
		t.Errorf("stderr %q, want one line starting %q", got, want)
	}
}

// recordedHarnesses are the folders of testdata/hooks.
var recordedHarnesses = []string{"claude", "codex", "copilot", "cursor", "opencode", "pi", "gemini", "qwen"}

// TestHookPayloadsAreTheRecordedOnes holds the payloads the scripts carry to
// the recorded ones in testdata/hooks: a script's claude/X or codex/X is
// byte for byte testdata/hooks/claude/X (the scripts move their
// placeholders when they run, never in the copy).
func TestHookPayloadsAreTheRecordedOnes(t *testing.T) {
	scripts, err := filepath.Glob("../testdata/script/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range scripts {
		ar, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if dir, _, _ := strings.Cut(f.Name, "/"); !slices.Contains(recordedHarnesses, dir) {
				continue
			}
			want, err := os.ReadFile(filepath.Join("../testdata/hooks", f.Name))
			if err != nil {
				t.Errorf("%s: %s is not a recorded payload: %v", filepath.Base(s), f.Name, err)
				continue
			}
			if !bytes.Equal(bytes.TrimRight(f.Data, "\n"), bytes.TrimRight(want, "\n")) {
				t.Errorf("%s: %s differs from testdata/hooks/%s", filepath.Base(s), f.Name, f.Name)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no script carries a recorded payload")
	}
}

// FuzzHook: whatever a harness hands a hook (on standard input, or as
// notify's argument), it exits 0, says at most one warning line, and
// answers nothing or one JSON object of the keys both harnesses accept (or,
// for the plugins' harnesses, of the keys the plugins read).
func FuzzHook(f *testing.F) {
	for i, dir := range recordedHarnesses {
		files, _ := filepath.Glob(filepath.Join("../testdata/hooks", dir, "*.json"))
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data, uint8([]int{0, 1, 3, 4, 5, 6, 7, 8}[i]))
		}
	}
	home := filepath.Join(f.TempDir(), "home")
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		args := []string{"hook", "claude"}
		keys := []string{"continue", "stopReason", "decision", "reason", "hookSpecificOutput", "systemMessage"}
		switch which % 9 {
		case 1:
			args = []string{"hook", "codex"}
		case 2:
			if !isText(string(data)) {
				return // an argument is never anything but text
			}
			args = []string{"hook", "codex", string(data)}
		case 3:
			args = []string{"hook", "copilot"}
			keys = []string{"additionalContext", "permissionDecision", "permissionDecisionReason", "decision", "reason", "behavior", "message", "interrupt"}
		case 4:
			args = []string{"hook", "cursor"}
			keys = []string{"additional_context", "decision", "reason", "followup_message"}
		case 5:
			args = []string{"hook", "opencode"}
			keys = []string{"chat", "context", "block", "stop", "prompt"}
		case 6:
			args = []string{"hook", "pi"}
			keys = []string{"chat", "context", "block", "stop", "prompt"}
		case 7:
			args = []string{"hook", "gemini"}
		case 8:
			args = []string{"hook", "qwen"}
		}
		env, out, errs := hookEnv(t, home, string(data))
		if code := Main(args, env); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if n := strings.Count(errs.String(), "\n"); n > 1 {
			t.Fatalf("%d lines on standard error: %q", n, errs)
		}
		if out.Len() == 0 {
			return
		}
		var ans map[string]json.RawMessage
		if strings.Count(out.String(), "\n") != 1 || json.Unmarshal(out.Bytes(), &ans) != nil {
			t.Fatalf("answer is not one JSON object: %q", out)
		}
		for k := range ans {
			if !slices.Contains(keys, k) {
				t.Fatalf("answer has key %q: %s", k, out)
			}
		}
	})
}

// TestHookContextCap: what a hook puts before the model stays under Claude
// Code's 10,000-character cap; whole messages that do not fit stay due, and
// the next event says them.
func TestHookContextCap(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	run := func(input string, args ...string) string {
		t.Helper()
		env, out, errs := hookEnv(t, home, input)
		if code := Main(args, env); code != 0 || (args[0] == "hook" && errs.Len() > 0) {
			t.Fatalf("conch %v: exit %d: %s", args, code, errs)
		}
		return out.String()
	}
	event := func(name, extra string) string {
		return `{"session_id":"CAP","cwd":"/tmp/cap","hook_event_name":"` + name + `"` + extra + `}`
	}
	run(event("SessionStart", ""), "hook", "claude")
	run("", "chat", "new", "--title", "Sender", "--folder", "/tmp/elsewhere")
	for _, w := range []string{"alpha ", "bravo ", "charlie "} {
		text := strings.Repeat(w, 3900/len(w))
		run("", "chat", "message", "c_1", text, "--chat", "c_2")
	}
	context := func(answer string) string {
		t.Helper()
		var ans struct {
			HookSpecificOutput struct{ AdditionalContext string } `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(answer), &ans); err != nil {
			t.Fatalf("answer %q: %v", answer, err)
		}
		return ans.HookSpecificOutput.AdditionalContext
	}
	first := context(run(event("UserPromptSubmit", `,"prompt":"go"`), "hook", "claude"))
	if n := len([]rune(first)); n > 10000 {
		t.Fatalf("additionalContext is %d characters", n)
	}
	if !strings.Contains(first, "alpha alpha") || !strings.Contains(first, "bravo bravo") || strings.Contains(first, "charlie") {
		t.Fatalf("the first context should hold the first two messages whole, and not the third:\n%.300s…", first)
	}
	next := context(run(event("PostToolUse", `,"tool_name":"Read","tool_input":{"file_path":"/tmp/cap/a"}`), "hook", "claude"))
	if !strings.Contains(next, "charlie charlie") || strings.Contains(next, "alpha") {
		t.Fatalf("the next event should say the third message, and only it:\n%.300s…", next)
	}
}

// TestHookEventTooLarge: an event past the hook's bound is not read, and
// the one warning says so (not that there was no event).
func TestHookEventTooLarge(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	for _, harness := range []string{"claude", "codex"} {
		env, out, errs := hookEnv(t, home, "")
		env.In = io.MultiReader(strings.NewReader(`{"prompt":"`), io.LimitReader(zeros{}, hookMaxInput))
		if code := Main([]string{"hook", harness}, env); code != 0 {
			t.Fatalf("%s: exit %d, want 0", harness, code)
		}
		want := "conch: warning: hook " + harness + ": the event is larger than 64 MiB: not read\n"
		if out.Len() != 0 || errs.String() != want {
			t.Errorf("%s: answered %q, warned %q; want nothing and %q", harness, out, errs, want)
		}
	}
}

// zeros reads as endless '0' bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}
