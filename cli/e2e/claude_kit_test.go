package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeEnv is one test's world for Claude Code: a fresh HOME (so a fresh
// ~/.claude), a project folder, a conch home, and the fake model.
type claudeEnv struct {
	t       testing.TB
	bin     string
	home    string // HOME
	project string // where sessions start
	conch   string // CONCH_HOME
	model   *messagesAPI
	extra   []string // more KEY=VALUE for every process
	// permissionMode is claude's --permission-mode (default
	// bypassPermissions: the fake model's tools run).
	permissionMode string
}

// newClaudeEnv sets up a world whose sessions talk to model, with conch's
// hooks installed in the user settings (unless bare).
func newClaudeEnv(t testing.TB, model *messagesAPI) *claudeEnv {
	t.Helper()
	bin := harnessBin(t, "claude")
	root := t.TempDir()
	e := &claudeEnv{t: t, bin: bin, home: filepath.Join(root, "home"), project: filepath.Join(root, "proj"),
		conch: filepath.Join(root, "conch"), model: model}
	for _, d := range []string{e.home, e.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The project folder is a git repository, as most are.
	if out, err := exec.Command("git", "init", "-q", e.project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	return e
}

// env is the environment of every process in this world: nothing can
// leave the machine (the model is on 127.0.0.1, every proxy a closed
// port, every switch for telemetry, updates and other traffic off).
func (e *claudeEnv) env() []string {
	env := append(baseEnv(),
		"HOME="+e.home,
		"CONCH_HOME="+e.conch,
		"ANTHROPIC_BASE_URL="+e.model.url,
		"ANTHROPIC_API_KEY=sk-ant-e2e-fake",
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
		"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "all_proxy=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"DISABLE_BUG_COMMAND=1", "DISABLE_NON_ESSENTIAL_MODEL_CALLS=1", "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1",
		"CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1", "CLAUDE_CODE_ENABLE_TELEMETRY=0",
		"CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL=1", "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
		"IS_SANDBOX=1", "SHELL=/bin/bash",
	)
	return append(env, e.extra...)
}

// conch runs conch in this world, as the person (no chat acting).
func (e *claudeEnv) conchOut(args ...string) string {
	e.t.Helper()
	out, err := conch(e.t, e.env(), args...)
	if err != nil {
		e.t.Fatalf("%v\n%s", err, out)
	}
	return out
}

// install puts conch's hooks in the user settings.
func (e *claudeEnv) install(args ...string) string {
	e.t.Helper()
	return e.conchIn(e.project, append([]string{"install", "claude"}, args...)...)
}

// conchIn runs conch in folder dir.
func (e *claudeEnv) conchIn(dir string, args ...string) string {
	e.t.Helper()
	cmd := exec.Command(conchBin, args...)
	cmd.Env = e.env()
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("conch %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// session is one run of claude -p.
type session struct {
	out    []byte // stream-json lines
	stderr string
	err    error
	id     string // the session id claude reported
}

// run runs claude -p with prompt in the project folder and waits for it.
func (e *claudeEnv) run(prompt string, args ...string) *session {
	e.t.Helper()
	cmd := e.command(prompt, args...)
	return e.wait(cmd)
}

func (e *claudeEnv) command(prompt string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	e.t.Cleanup(cancel)
	mode := e.permissionMode
	if mode == "" {
		mode = "bypassPermissions"
	}
	// Print mode, stream-json out.
	all := []string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--permission-mode", mode}
	cmd := exec.CommandContext(ctx, e.bin, append(all, args...)...)
	cmd.Env = e.env()
	cmd.Dir = e.project
	cmd.Stdin = nil
	return cmd
}

func (e *claudeEnv) wait(cmd *exec.Cmd) *session {
	e.t.Helper()
	var out, stderr bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout = &out
	}
	cmd.Stderr = &stderr
	s := &session{}
	s.err = cmd.Run()
	s.out, s.stderr = out.Bytes(), stderr.String()
	for _, line := range bytes.Split(s.out, []byte("\n")) {
		var ev struct {
			Type      string `json:"type"`
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal(line, &ev) == nil && ev.SessionID != "" {
			s.id = ev.SessionID
			break
		}
	}
	return s
}

// result is the session's final result line, as claude printed it.
func (s *session) result() map[string]any {
	for _, line := range bytes.Split(s.out, []byte("\n")) {
		var ev map[string]any
		if json.Unmarshal(line, &ev) == nil && ev["type"] == "result" {
			return ev
		}
	}
	return nil
}
