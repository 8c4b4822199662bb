package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// BenchmarkGuardPreToolUse: the guard's figure (issue 24). A Claude Code
// PreToolUse in a git work tree where another chat works and holds 50
// live claims: an Edit (claims read, the file's links followed) and a
// Bash git stash (the work trees looked up), each against a minimal cobra
// program that reads the same input. The bound: the hook within
// 1.3 × the minimal program.
//
//	go test ./cli/ -run XXX -bench GuardPreToolUse
func BenchmarkGuardPreToolUse(b *testing.B) {
	dir := b.TempDir()
	bin, floor := filepath.Join(dir, "conch"), filepath.Join(dir, "mincobra")
	for out, pkg := range map[string]string{bin: "../cmd/conch", floor: "./testdata/mincobra"} {
		if o, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, o)
		}
	}
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{filepath.Join(proj, ".git"), filepath.Join(proj, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	env := append(os.Environ(), "CONCH_HOME="+filepath.Join(dir, "home"), "CONCH_CHAT=")
	run := func(prog, stdin string, args ...string) {
		cmd := exec.Command(prog, args...)
		cmd.Env, cmd.Dir = env, proj
		cmd.Stdin = strings.NewReader(stdin)
		var errs bytes.Buffer
		cmd.Stderr = &errs
		if err := cmd.Run(); err != nil || errs.Len() > 0 {
			b.Fatalf("%s %v: %v %s", prog, args, err, errs.String())
		}
	}
	run(bin, "", "chat", "new", "--title", "claimant", "--folder", proj)
	// Its reply's harness is this process: alive while the benchmark runs.
	run(bin, "", "--chat", "c_1", "reply", "start", "--person", "--pid", strconv.Itoa(os.Getpid()))
	claims := []string{"--chat", "c_1", "claim"}
	for i := 0; i < 50; i++ {
		claims = append(claims, filepath.Join(proj, "src", "claimed"+strconv.Itoa(i)+".go"))
	}
	run(bin, "", claims...)
	event := func(name, extra string) string {
		return `{"session_id":"BENCH","transcript_path":"/nowhere.jsonl","cwd":"` + proj +
			`","permission_mode":"default","hook_event_name":"` + name + `"` + extra + `}`
	}
	run(bin, event("SessionStart", `,"source":"startup"`), "hook", "claude")
	run(bin, event("UserPromptSubmit", `,"prompt":"measure me"`), "hook", "claude")
	edit := event("PreToolUse", `,"tool_name":"Edit","tool_input":{"file_path":"`+proj+`/src/free.go","old_string":"a","new_string":"b"},"tool_use_id":"t1"`)
	stash := event("PreToolUse", `,"tool_name":"Bash","tool_input":{"command":"git stash"},"tool_use_id":"t2"`)

	b.Run("minimal-cobra", func(b *testing.B) {
		for b.Loop() {
			run(floor, edit)
		}
	})
	b.Run("hook-edit", func(b *testing.B) {
		for b.Loop() {
			run(bin, edit, "hook", "claude")
		}
	})
	b.Run("hook-git-stash", func(b *testing.B) {
		for b.Loop() {
			run(bin, stash, "hook", "claude")
		}
	})
}
