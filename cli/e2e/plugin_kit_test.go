package e2e

// Driving the real OpenCode and Pi: a fresh HOME per test (and XDG
// folders, and Pi's agent folder, inside it) whose only model is the fake
// chat completions server on 127.0.0.1, with everything that would call out
// turned off, and conch's plugin installed by conch install opencode|pi
// --project.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pluginSession is one test's OpenCode or Pi: its homes, its project
// folder, its model.
type pluginSession struct {
	t         testing.TB
	harness   string // opencode | pi
	bin       string
	home      string // HOME
	conchHome string // CONCH_HOME
	dir       string // the project folder the harness works in
	model     *chatModel
	extraEnv  []string
}

// openCodeConfig is the project's opencode.json: the fake model is the
// only provider (the AI SDK's openai-compatible package, which OpenCode
// bundles), nothing is shared or updated, and no git snapshot is kept.
const openCodeConfig = `{
  "$schema": "https://opencode.ai/config.json",
  "provider": {
    "fake": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Fake",
      "options": { "baseURL": %q, "apiKey": "sk-fake-for-tests" },
      "models": { "fake-model": { "name": "Fake Model", "tool_call": true, "limit": { "context": 100000, "output": 4000 } } }
    }
  },
  "model": "fake/fake-model",
  "small_model": "fake/fake-model",
  "autoupdate": false,
  "share": "disabled",
  "snapshot": false
}
`

// piModels is Pi's models.json: the fake model as an openai-completions
// provider (system prompt as a system message, no reasoning effort).
const piModels = `{ "providers": { "fake": {
  "baseUrl": %q, "api": "openai-completions", "apiKey": "sk-fake-for-tests",
  "compat": { "supportsDeveloperRole": false, "supportsReasoningEffort": false },
  "models": [ { "id": "fake-model", "reasoning": false, "contextWindow": 100000, "maxTokens": 4000 } ] } } }
`

// newPluginSession makes the harness for the test, with conch's plugin
// installed in its project folder.
func newPluginSession(t testing.TB, harness string, model *chatModel) *pluginSession {
	return newPluginSessionBy(t, harness, model, nil)
}

// newPluginSessionBy makes the harness for the test; with like, in like's
// folder, with its homes (the person's conch home, one HOME): two
// harnesses side by side.
func newPluginSessionBy(t testing.TB, harness string, model *chatModel, like *pluginSession) *pluginSession {
	t.Helper()
	bin := harnessBin(t, harness)
	root := t.TempDir()
	s := &pluginSession{
		t: t, harness: harness, bin: bin, model: model,
		home:      filepath.Join(root, "home"),
		conchHome: filepath.Join(root, "conch"),
		dir:       filepath.Join(root, "proj"),
	}
	if like != nil {
		s.home, s.conchHome, s.dir = like.home, like.conchHome, like.dir
	}
	for _, d := range []string{s.home, filepath.Join(s.home, "tmp"), s.dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if like == nil {
		if out, err := exec.Command("git", "init", "-q", s.dir).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	}
	switch harness {
	case "opencode":
		s.write(filepath.Join(s.dir, "opencode.json"), fmt.Sprintf(openCodeConfig, model.url))
		// OpenCode installs @opencode-ai/plugin into each config folder
		// at start unless its lock file names it already: with no network
		// it retries for over a minute. conch's plugin imports nothing of it.
		for _, d := range []string{filepath.Join(s.dir, ".opencode"), filepath.Join(s.home, ".config", "opencode")} {
			s.write(filepath.Join(d, "node_modules", ".keep"), "")
			s.write(filepath.Join(d, "package.json"), `{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}`+"\n")
			s.write(filepath.Join(d, "package-lock.json"), `{"packages":{"":{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}}}`+"\n")
		}
	case "pi":
		agent := filepath.Join(s.home, ".pi", "agent")
		s.write(filepath.Join(agent, "models.json"), fmt.Sprintf(piModels, model.url))
		s.write(filepath.Join(agent, "settings.json"), `{ "enableInstallTelemetry": false, "quietStartup": true }`+"\n")
	}
	s.install()
	return s
}

func (s *pluginSession) write(path, text string) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// env is the environment the harness and conch run in: only the test's
// homes and proxies that lead nowhere, with every switch that would call
// out turned off.
func (s *pluginSession) env() []string {
	env := append(baseEnv(),
		"HOME="+s.home,
		"XDG_CONFIG_HOME="+filepath.Join(s.home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(s.home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(s.home, ".cache"),
		"XDG_STATE_HOME="+filepath.Join(s.home, ".local", "state"),
		"CONCH_HOME="+s.conchHome,
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
		"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "all_proxy=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"TMPDIR="+filepath.Join(s.home, "tmp"),
		// OpenCode: no models.dev catalogue, no update, no sharing, no
		// language servers or default plugins to download, no ~/.claude.
		"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_SHARE=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_CLAUDE_CODE=1",
		"OPENCODE_DISABLE_EXTERNAL_SKILLS=1",
		// Start faster: no file watcher, the quick boot.
		"OPENCODE_FAST_BOOT=1", "OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER=1",
		// Pi: no start-up network at all, no version check, no telemetry.
		"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0",
	)
	return append(env, s.extraEnv...)
}

// install runs conch install HARNESS --project in the project folder, the
// plugin naming the conch built for the tests. With CONCH_E2E_PROBE=DIR
// the plugin runs conch through a script that first appends each event to
// DIR/HARNESS-TEST.jsonl (how testdata/hooks/opencode and pi were
// recorded).
func (s *pluginSession) install(args ...string) string {
	s.t.Helper()
	prog := conchBin
	if dir := os.Getenv("CONCH_E2E_PROBE"); dir != "" {
		log := filepath.Join(dir, s.harness+"-"+s.t.Name()+".jsonl")
		prog = filepath.Join(s.home, "conch-probe")
		// conch runs as the script's own process (exec), so its parent
		// is the harness, as without the probe.
		script := "#!/bin/sh\nt=$(mktemp)\ncat > \"$t\"\n{ cat \"$t\"; echo; } >> '" + log + "'\nexec 3< \"$t\"\nrm -f \"$t\"\nexec '" + conchBin + "' \"$@\" <&3\n"
		if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
			s.t.Fatal(err)
		}
	}
	out, err := s.conchIn(s.dir, append([]string{"install", s.harness, "--project", "--conch", prog}, args...)...)
	if err != nil {
		s.t.Fatalf("conch install %s: %v\n%s", s.harness, err, out)
	}
	return out
}

// runResult is what one run of the harness did.
type runResult struct {
	stdout, stderr string
	err            error
}

func (r runResult) ok(t testing.TB) runResult {
	t.Helper()
	if r.err != nil {
		t.Fatalf("the harness: %v\nstderr: %s\nstdout: %s", r.err, r.stderr, r.stdout)
	}
	return r
}

// run runs the harness non-interactively with the prompt, to its end:
// opencode run PROMPT, pi -p PROMPT.
func (s *pluginSession) run(prompt string, flags ...string) runResult {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var args []string
	switch s.harness {
	case "opencode":
		args = append(append([]string{"run"}, flags...), prompt)
	case "pi":
		args = append(append([]string{"-p", "--provider", "fake", "--model", "fake-model"}, flags...), prompt)
	}
	cmd := exec.CommandContext(ctx, s.bin, args...)
	cmd.Dir = s.dir
	cmd.Env = s.env()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = strings.NewReader("")
	err := cmd.Run()
	return runResult{out.String(), errb.String(), err}
}

// conch runs conch as the person (no chat acting), in the project folder.
func (s *pluginSession) conch(args ...string) string {
	s.t.Helper()
	out, err := s.conchIn(s.dir, args...)
	if err != nil {
		s.t.Fatalf("%v\n%s", err, out)
	}
	return out
}

func (s *pluginSession) conchIn(dir string, args ...string) (string, error) {
	cmd := exec.Command(conchBin, args...)
	cmd.Dir = dir
	cmd.Env = s.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out) + stderr.String(), fmt.Errorf("conch %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// chat is the person's view of one chat (conch chat show ID --json).
func (s *pluginSession) chat(id string) map[string]any {
	s.t.Helper()
	var c map[string]any
	out := s.conch("chat", "show", id, "--json")
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		s.t.Fatalf("chat show %s: %v\n%s", id, err, out)
	}
	return c
}

// rpcRun is a pi --mode rpc running: JSON commands go to its standard
// input, one a line.
type rpcRun struct {
	t      testing.TB
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bytes.Buffer
	done   chan error
	cancel context.CancelFunc
}

// rpc starts pi --mode rpc on the fake model; it ends when the test does,
// or at close.
func (s *pluginSession) rpc() *rpcRun {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := exec.CommandContext(ctx, s.bin, "--mode", "rpc", "--provider", "fake", "--model", "fake-model")
	cmd.Dir = s.dir
	cmd.Env = s.env()
	r := &rpcRun{t: s.t, cmd: cmd, out: &bytes.Buffer{}, done: make(chan error, 1), cancel: cancel}
	cmd.Stdout, cmd.Stderr = r.out, r.out
	var err error
	if r.stdin, err = cmd.StdinPipe(); err != nil {
		s.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	go func() { r.done <- cmd.Wait() }()
	s.t.Cleanup(func() { r.close() })
	return r
}

func (r *rpcRun) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.stdin, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

// close ends its input, so that pi leaves, and waits for it.
func (r *rpcRun) close() {
	if r.stdin == nil {
		return
	}
	r.stdin.Close()
	r.stdin = nil
	select {
	case <-r.done:
	case <-time.After(30 * time.Second):
		r.cancel()
		<-r.done
	}
	r.cancel()
}

// chatOr is the person's view of one chat, nil while there is none.
func (s *pluginSession) chatOr(id string) map[string]any {
	var c map[string]any
	out, err := s.conchIn(s.dir, "chat", "show", id, "--json")
	if err != nil || json.Unmarshal([]byte(out), &c) != nil {
		return nil
	}
	return c
}

// served is an opencode serve running on 127.0.0.1.
type served struct {
	url string
	cmd *exec.Cmd
}

// serve starts opencode serve in the project folder on a free port of
// 127.0.0.1, and waits until it answers; it ends with the test.
func (s *pluginSession) serve() *served {
	s.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	cmd := exec.CommandContext(ctx, s.bin, "serve", "--print-logs", "--hostname", "127.0.0.1", "--port", fmt.Sprint(port))
	cmd.Dir = s.dir
	cmd.Env = s.env()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			cancel()
			<-done
		}
		cancel()
	})
	srv := &served{url: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd}
	// A request it takes as it starts to listen may never be answered:
	// each try has 10 s, and the project's instance boots at the first
	// it does answer.
	client := &http.Client{Timeout: 10 * time.Second}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := client.Get(srv.url + "/session")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				if os.Getenv("CONCH_E2E_LOGS") != "" {
					s.t.Logf("opencode serve:\n%s", out.String())
				}
				return srv
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("opencode serve never answered: %v\n%s", err, out.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// post sends JSON to the server and reads its JSON answer (nil for none).
func (srv *served) post(t testing.TB, path, body string) map[string]any {
	t.Helper()
	resp, err := http.Post(srv.url+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("POST %s: %s\n%s", path, resp.Status, data)
	}
	var v map[string]any
	_ = json.Unmarshal(data, &v)
	return v
}
