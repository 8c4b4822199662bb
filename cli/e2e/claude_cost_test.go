package e2e

import (
	"bufio"
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

// TestClaudeHookCost measures, inside real Claude Code sessions, what
// conch's hook costs against a no-op hook in the same session: each event
// conch hooks has both handlers, each run under the same timer (a shell
// that reads the clock before and after), so the two figures differ by
// conch's own work. A measurement, not a test: CONCH_E2E_BENCH=1 runs it
// (CONCH_E2E_SESSIONS sessions of CONCH_E2E_TOOLS Bash calls each).
func TestClaudeHookCost(t *testing.T) {
	if os.Getenv("CONCH_E2E_BENCH") == "" {
		t.Skip("a measurement: CONCH_E2E_BENCH=1 runs it")
	}
	sessions, tools := envInt("CONCH_E2E_SESSIONS", 20), envInt("CONCH_E2E_TOOLS", 10)
	var turns []apiTurn
	for i := 0; i < tools; i++ {
		turns = append(turns, says(tool("Bash", map[string]any{"command": "true", "description": "a step"})))
	}
	turns = append(turns, says(text("Done.")))
	m := newMessagesAPI(t)
	e := newClaudeEnv(t, m)
	dir := t.TempDir()
	times := filepath.Join(dir, "times.txt")
	timer := filepath.Join(dir, "timeit.sh")
	script := `name=$1; ev=$2; shift 2
s=$(date +%s%N)
"$@"
e=$(date +%s%N)
echo "$name $ev $(( (e - s) / 1000 ))" >> ` + times + "\n"
	if err := os.WriteFile(timer, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	events := []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"}
	hooks := map[string]any{}
	for _, ev := range events {
		group := map[string]any{"hooks": []any{
			map[string]any{"type": "command", "command": "sh " + timer + " conch " + ev + " conch hook claude", "timeout": 10},
			map[string]any{"type": "command", "command": "sh " + timer + " noop " + ev + " true", "timeout": 10},
		}}
		if strings.Contains(ev, "Tool") {
			group["matcher"] = "*"
		}
		hooks[ev] = []any{group}
	}
	data, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err := os.MkdirAll(filepath.Join(e.home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.home, ".claude", "settings.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := 0; i < sessions; i++ {
		marker := fmt.Sprintf("SESSION-%d", i)
		m.conversation(marker, turns...)
		e.run(marker + ": work").ok(t)
	}
	t.Logf("%d sessions of %d tool calls in %s", sessions, tools, time.Since(start).Round(time.Millisecond))
	f, err := os.Open(times)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string][]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) != 3 {
			continue
		}
		us, _ := strconv.Atoi(w[2])
		got[w[0]+" "+w[1]] = append(got[w[0]+" "+w[1]], us)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-18s %5s %12s %12s %12s %12s\n", "event", "n", "conch p50", "noop p50", "conch p99", "noop p99")
	for _, ev := range events {
		c, n := got["conch "+ev], got["noop "+ev]
		fmt.Fprintf(&b, "%-18s %5d %10.1fms %10.1fms %10.1fms %10.1fms\n", ev, len(c), pct(c, 50), pct(n, 50), pct(c, 99), pct(n, 99))
	}
	t.Log("\n" + b.String())
	if out := os.Getenv("CONCH_E2E_BENCH_OUT"); out != "" {
		_ = os.WriteFile(out, []byte(b.String()), 0o644)
	}
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
