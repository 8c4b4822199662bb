package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestHookCost measures, inside real sessions of every harness that runs
// command hooks, what conch's hook costs against a no-op hook (one that
// reads its event and answers nothing) in the same sessions: after conch
// install, each of conch's handlers is paired with a no-op beside it, both
// run under the same timer (a shell that reads the clock, evals the
// handler, reads the clock again), so the two figures differ by conch's
// own work. A measurement, not a test: one variable runs it,
//
//	CONCH_E2E_BENCH=1 go test ./cli/e2e -run TestHookCost -v
//
// (CONCH_E2E_SESSIONS sessions of CONCH_E2E_TOOLS shell calls each, per
// harness). Goal (issue 25): at most 5 ms median over the no-op per event
// in Claude Code and Codex. OpenCode and Pi hear conch through a plugin,
// not a command hook: there is no handler to pair.
func TestHookCost(t *testing.T) {
	if os.Getenv("CONCH_E2E_BENCH") == "" {
		t.Skip("a measurement: CONCH_E2E_BENCH=1 runs it")
	}
	sessions, tools := envInt("CONCH_E2E_SESSIONS", 8), envInt("CONCH_E2E_TOOLS", 10)
	var report strings.Builder
	measure := func(t *testing.T, harness string, goal float64, files []string, run func(i int)) {
		timer := newHookTimer(t)
		if len(files) == 0 {
			t.Fatalf("conch install %s wrote no hooks to pair", harness)
		}
		for _, f := range files {
			timer.pair(t, f)
		}
		for i := 0; i < sessions; i++ {
			run(i)
		}
		table := timer.report(t, harness, goal)
		t.Log("\n" + table)
		report.WriteString(table + "\n")
	}
	t.Run("claude", func(t *testing.T) {
		var turns []apiTurn
		for i := 0; i < tools; i++ {
			turns = append(turns, says(tool("Bash", map[string]any{"command": "true", "description": "a step"})))
		}
		turns = append(turns, says(text("Done.")))
		m := newMessagesAPI(t)
		e := newClaudeEnv(t, m)
		e.install()
		measure(t, "claude", 5, hookFiles(t, e.home, "claude"), func(i int) {
			marker := fmt.Sprintf("SESSION-%d", i)
			m.conversation(marker, turns...)
			e.run(marker + ": work").ok(t)
		})
	})
	t.Run("codex", func(t *testing.T) {
		s := newCodex(t, func(r *modelRequest, n int) turn {
			if i := n % (tools + 1); i < tools {
				return turn{shell(fmt.Sprintf("call_%d", n), "echo "+strconv.Itoa(i))}
			}
			return turn{say("Done.")}
		})
		s.install()
		measure(t, "codex", 5, hookFiles(t, s.codexHome, "codex"), func(int) { mustRun(t, s.exec("Count", bypass)) })
	})
	t.Run("gemini", func(t *testing.T) {
		s := newGemini(t, func(r *geminiRequest, n int) gturn {
			if i := n % (tools + 1); i < tools {
				return gturn{gshell("echo " + strconv.Itoa(i))}
			}
			return gturn{gsay("Done.")}
		})
		s.install()
		measure(t, "gemini", 0, hookFiles(t, s.home.home, "gemini"), func(int) { mustRun(t, s.run("Count")) })
	})
	t.Run("qwen", func(t *testing.T) {
		s := newQwen(t, func(r *ccRequest, n int) cturn {
			if i := n % (tools + 1); i < tools {
				return cturn{ccall(fmt.Sprintf("call_%d", n), "run_shell_command", map[string]any{"command": "echo " + strconv.Itoa(i), "description": "count"})}
			}
			return cturn{csay("Done.")}
		})
		s.install()
		measure(t, "qwen", 0, hookFiles(t, s.home.home, "qwen"), func(int) { mustRun(t, s.run("Count")) })
	})
	t.Run("copilot", func(t *testing.T) {
		s := newCopilot(t, func(r *modelRequest, n int) turn {
			if i := n % (tools + 1); i < tools {
				return turn{bash(fmt.Sprintf("call_%d", n), "echo "+strconv.Itoa(i))}
			}
			return turn{say("Done.")}
		})
		s.install()
		measure(t, "copilot", 0, append(hookFiles(t, s.home, "copilot"), hookFiles(t, s.dir, "copilot")...), func(int) { s.mustRun("Count") })
	})
	if out := os.Getenv("CONCH_E2E_BENCH_OUT"); out != "" {
		_ = os.WriteFile(out, []byte(report.String()), 0o644)
	}
}

func mustRun(t *testing.T, r execResult) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("the session failed: %v\n%s", r.err, r.stderr)
	}
}

// hookFiles are the JSON settings under dir that hold conch's hooks for
// harness (what conch install wrote).
func hookFiles(t *testing.T, dir, harness string) []string {
	t.Helper()
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil && strings.Contains(string(data), " hook "+harness) {
			files = append(files, p)
		}
		return nil
	})
	return files
}

// hookTimer pairs conch's handlers with no-ops, times both, and reads the
// times back.
type hookTimer struct{ wrap, log string }

func newHookTimer(t *testing.T) *hookTimer {
	dir := t.TempDir()
	h := &hookTimer{wrap: filepath.Join(dir, "timehook.sh"), log: filepath.Join(dir, "times.log")}
	script := "#!/bin/sh\nlog=$1; name=$2; ev=$3; cmd=$4\ns=$(date +%s%N)\neval \"$cmd\"\nrc=$?\ne=$(date +%s%N)\necho \"$name $ev $(( (e - s) / 1000 ))\" >> \"$log\"\nexit $rc\n"
	if err := os.WriteFile(h.wrap, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return h
}

// pair rewrites the settings file: every handler whose command runs conch's
// hook runs under the timer, and a no-op handler, timed alike, stands
// beside it for the same event.
func (h *hookTimer) pair(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	n := 0
	v = h.walk(v, "", &n)
	if n == 0 {
		t.Fatalf("%s: no conch hook to pair", file)
	}
	out, _ := json.MarshalIndent(v, "", "  ")
	if err := os.WriteFile(file, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

func (h *hookTimer) walk(v any, event string, n *int) any {
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			ev := event
			if k != "hooks" {
				ev = k
			}
			x[k] = h.walk(sub, ev, n)
		}
		return x
	case []any:
		var out []any
		for _, sub := range x {
			handler, ok := sub.(map[string]any)
			key, cmd := "", ""
			for _, k := range []string{"command", "bash"} {
				if s, isString := handler[k].(string); ok && isString && strings.Contains(s, " hook ") {
					key, cmd = k, s
				}
			}
			if key == "" {
				out = append(out, h.walk(sub, event, n))
				continue
			}
			*n++
			noop := map[string]any{}
			for k, v := range handler {
				noop[k] = v
			}
			handler[key] = h.timed("conch", event, cmd)
			noop[key] = h.timed("noop", event, "cat >/dev/null")
			out = append(out, handler, noop)
		}
		return out
	}
	return v
}

func (h *hookTimer) timed(name, event, cmd string) string {
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	return "sh " + q(h.wrap) + " " + q(h.log) + " " + name + " " + q(event) + " " + q(cmd)
}

// report is the table of conch's handler against the no-op, per event, in
// milliseconds; goal (0: none) is the most the median may be over the
// no-op's.
func (h *hookTimer) report(t *testing.T, harness string, goal float64) string {
	t.Helper()
	f, err := os.Open(h.log)
	if err != nil {
		t.Fatalf("no hook ran: %v", err)
	}
	defer f.Close()
	got := map[string][]int{}
	var events []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) != 3 {
			continue
		}
		us, _ := strconv.Atoi(w[2])
		if _, seen := got["conch "+w[1]]; !seen && w[0] == "conch" {
			events = append(events, w[1])
		}
		got[w[0]+" "+w[1]] = append(got[w[0]+" "+w[1]], us)
	}
	sort.Strings(events)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: conch's hook against a no-op hook, per event\n", harness)
	fmt.Fprintf(&b, "%-20s %5s %10s %10s %10s %10s  %s\n", "event", "n", "conch p50", "noop p50", "over p50", "conch p99", "goal")
	for _, ev := range events {
		c, n := got["conch "+ev], got["noop "+ev]
		over := pct(c, 50) - pct(n, 50)
		verdict := "-"
		if goal > 0 {
			verdict = fmt.Sprintf("≤ %.0f ms: ok", goal)
			if over > goal {
				verdict = fmt.Sprintf("≤ %.0f ms: MISSED", goal)
			}
		}
		fmt.Fprintf(&b, "%-20s %5d %8.1fms %8.1fms %8.1fms %8.1fms  %s\n", ev, len(c), pct(c, 50), pct(n, 50), over, pct(c, 99), verdict)
	}
	return b.String()
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// pct is the p-th percentile of microseconds, in milliseconds (nearest
// rank).
func pct(us []int, p int) float64 {
	if len(us) == 0 {
		return 0
	}
	s := append([]int(nil), us...)
	sort.Ints(s)
	i := (p*len(s)+99)/100 - 1
	if i < 0 {
		i = 0
	}
	return float64(s[i]) / 1000
}
