package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkHookVsStep: what a harness pays for each tool call. `conch hook
// claude` for a PostToolUse (read the event, find the session's chat, the
// notes) and for a PreToolUse (a step) against `conch step`, each the built
// binary run as a harness runs it, in a home with 50 chats.
//
//	go test ./cli/ -run XXX -bench HookVsStep
func BenchmarkHookVsStep(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "conch")
	build := exec.Command("go", "build", "-o", bin, "../cmd/conch")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "CONCH_HOME="+filepath.Join(dir, "home"), "CONCH_CHAT=")
	run := func(stdin string, args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Env, cmd.Dir = env, proj
		cmd.Stdin = strings.NewReader(stdin)
		var errs bytes.Buffer
		cmd.Stderr = &errs
		if err := cmd.Run(); err != nil || errs.Len() > 0 {
			b.Fatalf("conch %v: %v %s", args, err, errs.String())
		}
	}
	event := func(name, extra string) string {
		return `{"session_id":"BENCH","transcript_path":"/nowhere.jsonl","cwd":"` + proj +
			`","permission_mode":"default","hook_event_name":"` + name + `"` + extra + `}`
	}
	for i := 0; i < 49; i++ {
		run("", "chat", "new", "--title", "other", "--folder", filepath.Join(dir, "elsewhere"))
	}
	run(event("SessionStart", `,"source":"startup"`), "hook", "claude")
	run(event("UserPromptSubmit", `,"prompt":"measure me"`), "hook", "claude")
	read := `,"tool_name":"Read","tool_input":{"file_path":"` + proj + `/a.go"},"tool_use_id":"t1"`
	post := event("PostToolUse", read+`,"tool_response":{"type":"text","file":{"filePath":"`+proj+`/a.go","content":"package a"}}`)
	pre := event("PreToolUse", read)

	b.Run("step", func(b *testing.B) {
		for b.Loop() {
			run("", "step", "read", "--chat", "c_50", "--file", "a.go")
		}
	})
	b.Run("hook-pre-tool-use", func(b *testing.B) {
		for b.Loop() {
			run(pre, "hook", "claude")
		}
	})
	b.Run("hook-post-tool-use", func(b *testing.B) {
		for b.Loop() {
			run(post, "hook", "claude")
		}
	})
	b.Run("notes", func(b *testing.B) {
		for b.Loop() {
			run("", "notes", "--chat", "c_50")
		}
	})
}
