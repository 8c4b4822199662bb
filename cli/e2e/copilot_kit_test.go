package e2e

// Driving the real GitHub Copilot CLI: a fresh HOME and COPILOT_HOME per
// test whose only model is the fake one on 127.0.0.1 (Copilot's BYOK
// provider, COPILOT_PROVIDER_BASE_URL, OpenAI's Responses API), in offline
// mode (no GitHub sign-in, no telemetry, no update, no web tools) unless a
// test needs its web fetch, and conch's hooks installed by conch install
// copilot.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// copilotSession is one test's Copilot CLI: its homes, its folder, its model.
type copilotSession struct {
	t         testing.TB
	bin       string
	home      string // HOME
	conchHome string // CONCH_HOME
	dir       string // the project folder Copilot works in
	model     *fakeModel
	// online leaves offline mode off (Copilot's web_fetch exists only
	// then); everything but 127.0.0.1 still goes to a closed port.
	online   bool
	extraEnv []string
}

// copilotCache is where Copilot unpacks its own runtime (190 MB, on its
// first run): shared by every test, beside the npm install.
var copilotCache struct {
	once sync.Once
	dir  string
}

// newCopilot makes a Copilot CLI for the test, answering with the fake
// model's answer, and installs conch's hooks in its COPILOT_HOME.
func newCopilot(t testing.TB, answer func(r *modelRequest, n int) turn) *copilotSession {
	t.Helper()
	bin := harnessBin(t, "copilot")
	root := t.TempDir()
	s := &copilotSession{
		t: t, bin: bin,
		home:      filepath.Join(root, "home"),
		conchHome: filepath.Join(root, "conch"),
		dir:       filepath.Join(root, "proj"),
		model:     newFakeModel(t, answer),
	}
	for _, d := range []string{filepath.Join(s.home, ".copilot"), filepath.Join(s.home, "tmp"), s.dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command("git", "init", "-q", s.dir).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	}
	s.model.whole = true
	copilotCache.once.Do(func() {
		copilotCache.dir = filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(bin))), "copilot-cache")
	})
	return s
}

// env is the environment Copilot and conch run in: only the test's homes,
// the fake provider, and proxies that lead nowhere.
func (s *copilotSession) env() []string {
	env := append(baseEnv(),
		"HOME="+s.home,
		"COPILOT_HOME="+filepath.Join(s.home, ".copilot"),
		"COPILOT_CACHE_HOME="+copilotCache.dir,
		"CONCH_HOME="+s.conchHome,
		"COPILOT_PROVIDER_BASE_URL="+s.model.url,
		"COPILOT_PROVIDER_TYPE=openai",
		"COPILOT_PROVIDER_WIRE_API=responses",
		"COPILOT_PROVIDER_API_KEY=sk-fake-for-tests",
		"COPILOT_MODEL=gpt-5.1",
		"COPILOT_AUTO_UPDATE=false",
		"COPILOT_DISABLE_DESKTOP_NOTIFICATIONS=1",
		"COPILOT_DISABLE_KEYTAR=1",
		"NO_COLOR=1",
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
		"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "all_proxy=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"TMPDIR="+filepath.Join(s.home, "tmp"),
	)
	if s.online {
		env = append(env, "COPILOT_WEB_FETCH_ALLOW_LOCALHOST=1")
	} else {
		env = append(env, "COPILOT_OFFLINE=true")
	}
	return append(env, s.extraEnv...)
}

// install runs conch install copilot with args, in the project folder, the
// hooks naming the conch built for the tests.
func (s *copilotSession) install(args ...string) string {
	s.t.Helper()
	out, err := s.conchIn(s.dir, nil, append([]string{"install", "copilot", "--conch", conchBin}, args...)...)
	if err != nil {
		s.t.Fatalf("conch install copilot: %v\n%s", err, out)
	}
	return out
}

// conch runs conch as the person (no chat acting), in the project folder.
func (s *copilotSession) conch(args ...string) string {
	s.t.Helper()
	out, err := s.conchIn(s.dir, nil, args...)
	if err != nil {
		s.t.Fatalf("%v\n%s", err, out)
	}
	return out
}

func (s *copilotSession) conchIn(dir string, env []string, args ...string) (string, error) {
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

// chat is the person's view of one chat (conch chat show ID --json).
func (s *copilotSession) chat(id string) map[string]any {
	s.t.Helper()
	var c map[string]any
	out := s.conch("chat", "show", id, "--json")
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		s.t.Fatalf("chat show %s: %v\n%s", id, err, out)
	}
	return c
}

// run runs copilot -p with the prompt (and extra flags; --allow-all-tools
// unless flags say otherwise), to its end.
func (s *copilotSession) run(prompt string, flags ...string) execResult {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	if len(flags) == 0 {
		flags = []string{"--allow-all-tools"}
	}
	args := append([]string{"-p", prompt, "--no-color", "--no-auto-update", "--disable-client-telemetry"}, flags...)
	cmd := exec.CommandContext(ctx, s.bin, args...)
	cmd.Dir = s.dir
	cmd.Env = s.env()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = strings.NewReader("")
	start := time.Now()
	err := cmd.Run()
	return execResult{out.String(), errb.String(), err, time.Since(start)}
}

// copilotTool is a call of one of Copilot's tools (bash, create, view,
// web_fetch, task, …) with its arguments.
func copilotTool(callID, name string, args map[string]any) map[string]any {
	b, _ := json.Marshal(args)
	return map[string]any{"type": "function_call", "name": name, "arguments": string(b), "call_id": callID, "status": "completed"}
}

// bash is a call of Copilot's shell tool.
func bash(callID, command string) map[string]any {
	return copilotTool(callID, "bash", map[string]any{"command": command, "description": "run it"})
}
