package e2e

// Driving the real Codex CLI: a fresh CODEX_HOME per test whose only model
// provider is the fake model on 127.0.0.1, with everything that would call
// out turned off, and conch's hooks installed by conch install codex.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// codexSession is one test's Codex: its homes, its project folder, its model.
type codexSession struct {
	t         testing.TB
	bin       string
	home      string // HOME
	codexHome string // CODEX_HOME
	conchHome string // CONCH_HOME
	dir       string // the project folder Codex works in
	model     *fakeModel
	extraEnv  []string
}

// codexConfig is the config.toml every test starts from. Every switch that
// would make Codex reach past 127.0.0.1 is off, and the fake model is the
// only provider.
const codexConfig = `model = "gpt-5.1-codex"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false
hide_agent_reasoning = true
disable_paste_burst = true

[model_providers.fake]
name = "fake"
base_url = %q
wire_api = "responses"
env_key = "FAKE_OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 60000

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
log_user_prompt = false

[history]
persistence = "none"

[projects.%q]
trust_level = "trusted"
`

// newCodex makes a Codex for the test, answering with the fake model's
// answer, and installs conch's hooks in its CODEX_HOME.
func newCodex(t testing.TB, answer func(r *modelRequest, n int) turn) *codexSession {
	t.Helper()
	bin := harnessBin(t, "codex")
	root := t.TempDir()
	s := &codexSession{
		t: t, bin: bin,
		home:      filepath.Join(root, "home"),
		codexHome: filepath.Join(root, "home", ".codex"),
		conchHome: filepath.Join(root, "conch"),
		dir:       filepath.Join(root, "proj"),
		model:     newFakeModel(t, answer),
	}
	for _, d := range []string{s.codexHome, s.dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Codex works in a git repository (codex exec refuses others without
	// --skip-git-repo-check, which the tests pass too).
	if _, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command("git", "init", "-q", s.dir).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	}
	cfg := fmt.Sprintf(codexConfig, s.model.url, s.dir)
	if err := os.WriteFile(filepath.Join(s.codexHome, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// env is the environment Codex and conch run in: only the test's homes,
// the fake key, and proxies that lead nowhere, so nothing leaves the
// machine.
func (s *codexSession) env() []string {
	env := append(baseEnv(),
		"HOME="+s.home,
		"CODEX_HOME="+s.codexHome,
		"CONCH_HOME="+s.conchHome,
		"FAKE_OPENAI_API_KEY=sk-fake-for-tests",
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
		"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "all_proxy=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"RUST_LOG=warn",
		"TMPDIR="+filepath.Join(s.home, "tmp"),
	)
	return append(env, s.extraEnv...)
}

// another is a second Codex in the same folder, with the same conch home
// (the person's), its own CODEX_HOME and its own model.
func (s *codexSession) another(answer func(r *modelRequest, n int) turn) *codexSession {
	s.t.Helper()
	o := newCodex(s.t, answer)
	o.home, o.conchHome, o.dir = s.home, s.conchHome, s.dir
	cfg := fmt.Sprintf(codexConfig, o.model.url, o.dir)
	if err := os.WriteFile(filepath.Join(o.codexHome, "config.toml"), []byte(cfg), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return o
}

// chat is the person's view of one chat (conch chat show ID --json).
func (s *codexSession) chat(id string) map[string]any {
	s.t.Helper()
	var c map[string]any
	out := s.conch("chat", "show", id, "--json")
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		s.t.Fatalf("chat show %s: %v\n%s", id, err, out)
	}
	return c
}

// chatOr is the person's view of one chat, nil while there is none.
func (s *codexSession) chatOr(id string) map[string]any {
	var c map[string]any
	out, err := s.conchIn(s.dir, nil, "chat", "show", id, "--json")
	if err != nil || json.Unmarshal([]byte(out), &c) != nil {
		return nil
	}
	return c
}

// waitFor polls until ok holds (a harness works on its own time; the
// model's requests and conch's records are what a test can watch).
func waitFor(t testing.TB, what string, within time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// install runs conch install codex with args, in the project folder, the
// hooks naming the conch built for the tests.
func (s *codexSession) install(args ...string) string {
	s.t.Helper()
	out, err := s.conchIn(s.dir, nil, append([]string{"install", "codex", "--conch", conchBin}, args...)...)
	if err != nil {
		s.t.Fatalf("conch install codex: %v\n%s", err, out)
	}
	return out
}

// conch runs conch as the person (no chat acting), in the project folder.
func (s *codexSession) conch(args ...string) string {
	s.t.Helper()
	out, err := s.conchIn(s.dir, nil, args...)
	if err != nil {
		s.t.Fatalf("%v\n%s", err, out)
	}
	return out
}

func (s *codexSession) conchIn(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command(conchBin, args...)
	cmd.Dir = dir
	cmd.Env = append(s.env(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out) + stderr.String(), fmt.Errorf("conch %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// chats is conch chats list --json, as the person sees it.
func (s *codexSession) chats() []map[string]any {
	s.t.Helper()
	var list []map[string]any
	out := s.conch("chats", "list", "--json")
	var wrap struct {
		Chats []map[string]any `json:"chats"`
	}
	if json.Unmarshal([]byte(out), &wrap) == nil && wrap.Chats != nil {
		return wrap.Chats
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		s.t.Fatalf("chats list --json: %v\n%s", err, out)
	}
	return list
}

// execResult is what one codex exec did.
type execResult struct {
	stdout, stderr string
	err            error
	took           time.Duration
}

// exec runs codex exec with the prompt (and extra flags), to its end.
func (s *codexSession) exec(prompt string, flags ...string) execResult {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"exec", "--skip-git-repo-check", "--color", "never"}, flags...)
	args = append(args, prompt)
	cmd := exec.CommandContext(ctx, s.bin, args...)
	cmd.Dir = s.dir
	cmd.Env = s.env()
	os.MkdirAll(filepath.Join(s.home, "tmp"), 0o700)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = strings.NewReader("")
	start := time.Now()
	err := cmd.Run()
	return execResult{out.String(), errb.String(), err, time.Since(start)}
}
