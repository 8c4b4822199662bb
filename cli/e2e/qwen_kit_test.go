package e2e

// Driving the real Qwen Code: a fresh HOME per test whose settings point
// it at the fake chat completions model on 127.0.0.1 (OPENAI_BASE_URL, a
// fake key), with everything that would call out turned off, and conch's
// hooks installed by conch install qwen.

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

// qwenSession is one test's Qwen Code.
type qwenSession struct {
	*home
	model *chatAPI
}

// qwenSettings is the user settings.json every test starts from.
const qwenSettings = `{
  "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": false}},
  "general": {"enableAutoUpdate": false, "checkpointing": {"enabled": false}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "ide": {"enabled": false},
  "model": {"name": "fake-model", "skipNextSpeakerCheck": true, "skipLoopDetection": true},
  "tools": {"sandbox": false},
  "ui": {"enableFollowupSuggestions": false, "hideTips": true}
}
`

func newQwen(t testing.TB, answer func(r *ccRequest, n int) cturn) *qwenSession {
	t.Helper()
	s := &qwenSession{home: newHome(t, "qwen"), model: newChatAPI(t, answer)}
	s.modelEnv = s.qwenEnv
	if err := os.MkdirAll(filepath.Join(s.home.home, ".qwen"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.home.home, ".qwen", "settings.json"), []byte(qwenSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// qwenEnv points Qwen Code at its fake model.
func (s *qwenSession) qwenEnv() []string {
	return []string{
		"OPENAI_API_KEY=sk-fake-for-tests",
		"OPENAI_BASE_URL=" + s.model.url,
		"OPENAI_MODEL=fake-model",
		"QWEN_USAGE_STATISTICS_ENABLED=false",
		"QWEN_SANDBOX=false",
		"NO_BROWSER=true",
	}
}

// run runs qwen -p with the prompt (and extra flags), to its end.
func (s *qwenSession) run(prompt string, flags ...string) execResult {
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

// start runs qwen -p in the background.
func (s *qwenSession) start(prompt string, flags ...string) <-chan execResult {
	ch := make(chan execResult, 1)
	go func() { ch <- s.run(prompt, flags...) }()
	return ch
}
