package e2e

// Driving the real Gemini CLI: a fresh HOME per test whose settings point
// it at the fake Gemini model on 127.0.0.1 (GOOGLE_GEMINI_BASE_URL, a fake
// key), with everything that would call out turned off, and conch's hooks
// installed by conch install gemini.

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// geminiSession is one test's Gemini CLI: its homes and folder (home),
// its model.
type geminiSession struct {
	*home
	model *geminiAPI
}

// geminiSettings is the user settings.json every test starts from: the
// fake key's auth, no sandbox, no folder trust prompt, and every switch
// that would reach past 127.0.0.1 off.
const geminiSettings = `{
  "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false, "checkpointing": {"enabled": false}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "ide": {"enabled": false},
  "model": {"name": "gemini-2.5-flash", "skipNextSpeakerCheck": true, "disableLoopDetection": true},
  "tools": {"sandbox": false, "shell": {"enableInteractiveShell": false}},
  "ui": {"hideTips": true, "hideBanner": true},
  "experimental": {"enableAgents": false}
}
`

// newGemini makes a Gemini CLI for the test, answering with the fake
// model's answer.
func newGemini(t testing.TB, answer func(r *geminiRequest, n int) gturn) *geminiSession {
	t.Helper()
	s := &geminiSession{home: newHome(t, "gemini"), model: newGeminiAPI(t, answer)}
	s.modelEnv = s.geminiEnv
	if err := os.MkdirAll(filepath.Join(s.home.home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.home.home, ".gemini", "settings.json"), []byte(geminiSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// geminiEnv points Gemini CLI at its fake model.
// GITHUB_SHA is never passed: with it Gemini CLI strips every variable
// but its own allowlist (CONCH_HOME among them) from hooks and shells.
func (s *geminiSession) geminiEnv() []string {
	return []string{
		"GEMINI_API_KEY=fake-key-for-tests",
		"GOOGLE_GEMINI_BASE_URL=" + s.model.url,
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"GEMINI_SANDBOX=false",
		"NO_BROWSER=true",
	}
}

// another is a second Gemini CLI in the same folder, with the same homes
// (the person's) and its own model.
func (s *geminiSession) another(answer func(r *geminiRequest, n int) gturn) *geminiSession {
	s.t.Helper()
	h := *s.home
	o := &geminiSession{home: &h, model: newGeminiAPI(s.t, answer)}
	o.modelEnv = o.geminiEnv
	return o
}

// run runs gemini -p with the prompt (and extra flags), to its end.
func (s *geminiSession) run(prompt string, flags ...string) execResult {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	args := append([]string{"--approval-mode", "yolo"}, flags...)
	args = append(args, "-p", prompt)
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

// start runs gemini -p in the background; its result comes on the channel.
func (s *geminiSession) start(prompt string, flags ...string) <-chan execResult {
	ch := make(chan execResult, 1)
	go func() { ch <- s.run(prompt, flags...) }()
	return ch
}
