package e2e

// What the tests of every harness driven through its hooks share: a fresh
// HOME and conch home, a project folder (a git repository), and conch run
// as the person there.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// home is one test's machine for one harness: its HOME, its conch home,
// the folder it works in, and the binary.
type home struct {
	t         testing.TB
	harness   string // its conch name: gemini, qwen
	bin       string
	home      string // HOME
	conchHome string // CONCH_HOME
	dir       string // the project folder
	// modelEnv is what points the harness at its fake model.
	modelEnv func() []string
	extraEnv []string
}

func newHome(t testing.TB, harness string) *home {
	t.Helper()
	bin := harnessBin(t, harness)
	root := t.TempDir()
	h := &home{
		t: t, harness: harness, bin: bin,
		home:      filepath.Join(root, "home"),
		conchHome: filepath.Join(root, "conch"),
		dir:       filepath.Join(root, "proj"),
	}
	for _, d := range []string{filepath.Join(h.home, "tmp"), h.dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command("git", "init", "-q", h.dir).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	}
	return h
}

// env is the environment the harness and conch run in: only the test's
// homes, the fake model's address and key, and proxies that lead nowhere,
// so nothing leaves the machine.
func (h *home) env() []string {
	env := append(baseEnv(),
		"HOME="+h.home,
		"CONCH_HOME="+h.conchHome,
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
		"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "all_proxy=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"TMPDIR="+filepath.Join(h.home, "tmp"),
	)
	if h.modelEnv != nil {
		env = append(env, h.modelEnv()...)
	}
	return append(env, h.extraEnv...)
}

// install runs conch install HARNESS with args, in the project folder,
// the hooks naming the conch built for the tests.
func (h *home) install(args ...string) string {
	h.t.Helper()
	out, err := h.conchIn(h.dir, nil, append([]string{"install", h.harness, "--conch", conchBin}, args...)...)
	if err != nil {
		h.t.Fatalf("conch install %s: %v\n%s", h.harness, err, out)
	}
	return out
}

// conch runs conch as the person (no chat acting), in the project folder.
func (h *home) conch(args ...string) string {
	h.t.Helper()
	out, err := h.conchIn(h.dir, nil, args...)
	if err != nil {
		h.t.Fatalf("%v\n%s", err, out)
	}
	return out
}

func (h *home) conchIn(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command(conchBin, args...)
	cmd.Dir = dir
	cmd.Env = append(h.env(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out) + stderr.String(), fmt.Errorf("conch %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// chat is the person's view of one chat (conch chat show ID --json).
func (h *home) chat(id string) map[string]any {
	h.t.Helper()
	var c map[string]any
	out := h.conch("chat", "show", id, "--json")
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		h.t.Fatalf("chat show %s: %v\n%s", id, err, out)
	}
	return c
}

// chatOr is the person's view of one chat, nil while there is none.
func (h *home) chatOr(id string) map[string]any {
	var c map[string]any
	out, err := h.conchIn(h.dir, nil, "chat", "show", id, "--json")
	if err != nil || json.Unmarshal([]byte(out), &c) != nil {
		return nil
	}
	return c
}

// chats is conch chats list --json, as the person sees it.
func (h *home) chats() []map[string]any {
	h.t.Helper()
	out := h.conch("chats", "list", "--json")
	var wrap struct {
		Chats []map[string]any `json:"chats"`
	}
	if json.Unmarshal([]byte(out), &wrap) == nil && wrap.Chats != nil {
		return wrap.Chats
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		h.t.Fatalf("chats list --json: %v\n%s", err, out)
	}
	return list
}

// settings merges patch (top-level keys) into the harness's user
// settings file, as a person's own settings would sit beside conch's.
func (h *home) settings(rel string, patch map[string]any) {
	h.t.Helper()
	path := filepath.Join(h.home, rel)
	var set map[string]any
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &set)
	}
	if set == nil {
		set = map[string]any{}
	}
	for k, v := range patch {
		set[k] = v
	}
	b, _ := json.MarshalIndent(set, "", "  ")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		h.t.Fatal(err)
	}
}
