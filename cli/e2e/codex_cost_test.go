package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCodexHookCost measures conch's hook inside real Codex sessions
// against a no-op hook (one that reads its event and answers nothing) in
// the same sessions: both are handlers of every event, launched together
// by Codex, each timed by the same wrapper. Run it on purpose:
//
//	CONCH_E2E_MEASURE=1 go test ./cli/e2e -run TestCodexHookCost -v
func TestCodexHookCost(t *testing.T) {
	if os.Getenv("CONCH_E2E_MEASURE") == "" {
		t.Skip("a measurement: CONCH_E2E_MEASURE=1 runs it")
	}
	const sessions, tools = 8, 12
	var s *codexSession
	s = newCodex(t, func(r *modelRequest, n int) turn {
		if i := n % (tools + 1); i < tools {
			return turn{shell(fmt.Sprintf("call_%d", n), "echo "+strconv.Itoa(i))}
		}
		return turn{say("Done.")}
	})
	log := filepath.Join(t.TempDir(), "times.log")
	wrap := filepath.Join(t.TempDir(), "timehook.sh")
	script := "#!/bin/sh\nlog=$1; name=$2; shift 2\ns=$(date +%s%N); \"$@\"; rc=$?; e=$(date +%s%N)\necho \"$name $((e-s))\" >> \"$log\"\nexit $rc\n"
	if err := os.WriteFile(wrap, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := map[string]any{}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"} {
		timeout := 10
		if ev == "SessionEnd" {
			timeout = 3
		}
		hooks[ev] = []any{map[string]any{"hooks": []any{
			map[string]any{"type": "command", "command": fmt.Sprintf("%s %s '%s conch' %s hook codex", wrap, log, ev, conchBin), "timeout": timeout},
			map[string]any{"type": "command", "command": fmt.Sprintf("%s %s '%s noop' sh -c 'cat >/dev/null'", wrap, log, ev), "timeout": timeout},
		}}}
	}
	data, _ := json.Marshal(map[string]any{"hooks": hooks})
	if err := os.WriteFile(filepath.Join(s.codexHome, "hooks.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < sessions; i++ {
		if r := s.exec("Count", bypass); r.err != nil {
			t.Fatalf("codex exec: %v\n%s", r.err, r.stderr)
		}
	}
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	times := map[string][]time.Duration{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		ns, _ := strconv.ParseInt(f[2], 10, 64)
		times[f[0]+" "+f[1]] = append(times[f[0]+" "+f[1]], time.Duration(ns))
	}
	var keys []string
	for k := range times {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%-26s %5s %9s %9s\n", "event handler", "n", "median", "p99")
	for _, k := range keys {
		d := times[k]
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		p99 := d[(len(d)*99+99)/100-1]
		fmt.Fprintf(&b, "%-26s %5d %9s %9s\n", k, len(d), d[len(d)/2].Round(10*time.Microsecond), p99.Round(10*time.Microsecond))
	}
	t.Logf("conch's hook against a no-op hook, in %d codex exec sessions of %d tool calls:\n%s", sessions, tools, b.String())
}
