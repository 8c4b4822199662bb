package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Issue 23's figures, as benchmarks (never timed tests): from a send's
// exit to the woken harness's process starting, and from the send to the
// fake model's first request of the woken turn, each the median of b.N
// wakes. Run: go test -count=1 ./cli/e2e -run '^$' -bench Wake -benchtime 20x

// fakeResume is a harness (named claude, found on the PATH a resume
// reads) that notes the time it started, then runs a session's hooks
// through conch hook claude, as the real one does, and exits.
const fakeResume = `#!/bin/sh
date +%s%N > "$(dirname "$0")/../started"
sid=bench prompt=
while [ $# -gt 0 ]; do
	case $1 in
	--resume) sid=$2; shift ;;
	-p|--permission-mode) [ "$1" = --permission-mode ] && shift ;;
	*) prompt=$1 ;;
	esac
	shift
done
d=$(pwd -P)
hook() { printf '%s' "$1" | conch hook claude > /dev/null; }
hook '{"hook_event_name":"SessionStart","session_id":"'$sid'","cwd":"'$d'","source":"resume"}'
hook '{"hook_event_name":"UserPromptSubmit","session_id":"'$sid'","cwd":"'$d'","prompt":"go on"}'
hook '{"hook_event_name":"Stop","session_id":"'$sid'","cwd":"'$d'","stop_hook_active":false,"last_assistant_message":"done"}'
hook '{"hook_event_name":"SessionEnd","session_id":"'$sid'","cwd":"'$d'"}'
`

// BenchmarkWakeStart: a send's exit to the harness process's start, with a
// fake harness (conch's own part of a wake: the send's commit, the
// detached wake-run, its claim, the harness's exec).
func BenchmarkWakeStart(b *testing.B) {
	root := b.TempDir()
	bin, proj, home := filepath.Join(root, "bin"), filepath.Join(root, "proj"), filepath.Join(root, "conch")
	for _, d := range []string{bin, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fakeResume), 0o755); err != nil {
		b.Fatal(err)
	}
	env := append(baseEnv(), "PATH="+bin+":"+filepath.Dir(conchBin)+":/usr/bin:/bin", "CONCH_HOME="+home, "HOME="+root)
	first := exec.Command(filepath.Join(bin, "claude"), "-p", "first")
	first.Dir, first.Env = proj, env
	if out, err := first.CombinedOutput(); err != nil {
		b.Fatalf("the first run: %v\n%s", err, out)
	}
	var toStart, toHooked []time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		if i%9 == 0 {
			must(b, env, "chat", "new", "--title", "Sender", "--folder", proj)
		}
		must(b, env, "reply", "start", "--person", "--chat", sender(i))
		os.Remove(filepath.Join(root, "started"))
		b.StartTimer()
		sent := time.Now()
		must(b, env, "chat", "message", "c_1", fmt.Sprintf("wake %d", i), "--start-reply", "--chat", sender(i))
		exited := time.Now()
		b.StopTimer()
		started := waitStarted(b, filepath.Join(root, "started"))
		toStart = append(toStart, started.Sub(exited))
		out := must(b, env, "wait", "chat", "c_1", "--timeout", "60s")
		if !strings.Contains(out, "finished its reply") {
			b.Fatalf("the woken run did not finish: %s", out)
		}
		toHooked = append(toHooked, time.Since(sent))
		wokenRunEnds(b, home, "c_1")
	}
	b.ReportMetric(median(toStart), "ms-exit-to-start")
	b.ReportMetric(median(toHooked), "ms-send-to-reply-end")
}

// BenchmarkWakeClaude: a send to the fake model's first request of the
// woken turn, with the real Claude Code.
func BenchmarkWakeClaude(b *testing.B) {
	m := newMessagesAPI(b)
	turns := []apiTurn{says(text("First."))}
	for i := range b.N {
		turns = append(turns, says(text(fmt.Sprintf("Woken %d.", i))))
	}
	m.conversation("PROMPT-B", turns...)
	e := newClaudeEnv(b, m)
	e.install()
	e.run("PROMPT-B: fix the login").ok(b)
	var toModel []time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		if i%9 == 0 {
			e.conchOut("chat", "new", "--title", "Sender")
		}
		e.conchOut("reply", "start", "--person", "--chat", sender(i))
		b.StartTimer()
		sent := time.Now()
		e.conchOut("chat", "message", "c_1", fmt.Sprintf("wake %d", i), "--start-reply", "--chat", sender(i))
		m.reach("PROMPT-B", i+1)
		toModel = append(toModel, time.Since(sent))
		b.StopTimer()
		if out, err := conch(b, e.env(), "wait", "chat", "c_1", "--timeout", "90s"); err != nil {
			b.Fatalf("the wait: %v %s", err, out)
		}
		wokenRunEnds(b, e.conch, "c_1")
	}
	b.ReportMetric(median(toModel), "ms-send-to-model")
}

// BenchmarkWakeCodex: the same with the real Codex.
func BenchmarkWakeCodex(b *testing.B) {
	s := newCodex(b, func(r *modelRequest, n int) turn { return turn{say(fmt.Sprintf("Answer %d.", n))} })
	s.install()
	if res := s.exec("fix the login", bypass); res.err != nil {
		b.Fatalf("codex exec: %v\n%s", res.err, res.stderr)
	}
	var toModel []time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		if i%9 == 0 {
			s.conch("chat", "new", "--title", "Sender")
		}
		s.conch("reply", "start", "--person", "--chat", sender(i))
		word := fmt.Sprintf("wake-%d-now", i)
		b.StartTimer()
		sent := time.Now()
		s.conch("chat", "message", "c_1", word, "--start-reply", "--chat", sender(i))
		s.model.waitRequest(b, "the woken turn", func(r *modelRequest) bool { return strings.Contains(r.text(), word) })
		toModel = append(toModel, time.Since(sent))
		b.StopTimer()
		if out, err := s.conchIn(s.dir, nil, "wait", "chat", "c_1", "--timeout", "90s"); err != nil {
			b.Fatalf("the wait: %v %s", err, out)
		}
		wokenRunEnds(b, s.conchHome, "c_1")
	}
	b.ReportMetric(median(toModel), "ms-send-to-model")
}

// sender is the chat that sends the i-th wake: a new one each 9, under
// the bound of 10 messages from one chat to another in 10 minutes.
func sender(i int) string { return fmt.Sprintf("c_%d", 2+i/9) }

// must runs conch with env and fails the benchmark if it fails.
func must(b *testing.B, env []string, args ...string) string {
	b.Helper()
	cmd := exec.Command(conchBin, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("conch %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// waitStarted waits for the fake harness's start time (nanoseconds since
// the epoch) in file.
func waitStarted(b *testing.B, file string) time.Time {
	b.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		data, err := os.ReadFile(file)
		if n, perr := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && perr == nil {
			return time.Unix(0, n)
		}
		if time.Now().After(deadline) {
			b.Fatal("the fake harness never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// median of the durations, in milliseconds.
func median(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2]) / float64(time.Millisecond)
}

// benchWake is a benchmark of one harness's wake: send a --start-reply
// message to chat c_1 (run once and ended) b.N times, each from a fresh
// chain, timing the send to the fake model's first request of the woken
// turn (reached says whether a request with the word came).
func benchWake(b *testing.B, conchHome string, run func(args ...string) (string, error), reached func(word string) bool) {
	b.Helper()
	must := func(args ...string) string {
		out, err := run(args...)
		if err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		return out
	}
	var toModel []time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		if i%9 == 0 {
			must("chat", "new", "--title", "Sender")
		}
		must("reply", "start", "--person", "--chat", sender(i))
		word := fmt.Sprintf("wake-%d-now", i)
		b.StartTimer()
		sent := time.Now()
		must("chat", "message", "c_1", word, "--start-reply", "--chat", sender(i))
		deadline := time.Now().Add(time.Minute)
		for !reached(word) {
			if time.Now().After(deadline) {
				b.Fatalf("the woken turn of wake %d never reached the model", i)
			}
			time.Sleep(2 * time.Millisecond)
		}
		toModel = append(toModel, time.Since(sent))
		b.StopTimer()
		must("wait", "chat", "c_1", "--timeout", "90s")
		wokenRunEnds(b, conchHome, "c_1")
	}
	b.ReportMetric(median(toModel), "ms-send-to-model")
}

func BenchmarkWakeGemini(b *testing.B) {
	s := newGemini(b, func(r *geminiRequest, n int) gturn { return gturn{gsay("Done.")} })
	s.install()
	if res := s.run("fix the login"); res.err != nil {
		b.Fatalf("gemini: %v\n%s", res.err, res.stderr)
	}
	h := s.home
	benchWake(b, h.conchHome, func(args ...string) (string, error) { return h.conchIn(h.dir, nil, args...) }, func(word string) bool {
		for _, r := range s.model.mainRequests() {
			if strings.Contains(r.text(), word) {
				return true
			}
		}
		return false
	})
}

func BenchmarkWakeQwen(b *testing.B) {
	s := newQwen(b, func(r *ccRequest, n int) cturn { return cturn{csay("Done.")} })
	s.install()
	if res := s.run("fix the login"); res.err != nil {
		b.Fatalf("qwen: %v\n%s", res.err, res.stderr)
	}
	h := s.home
	benchWake(b, h.conchHome, func(args ...string) (string, error) { return h.conchIn(h.dir, nil, args...) }, func(word string) bool {
		for _, r := range s.model.requests() {
			if strings.Contains(r.text(), word) {
				return true
			}
		}
		return false
	})
}

func BenchmarkWakeCopilot(b *testing.B) {
	s := newCopilot(b, func(r *modelRequest, n int) turn { return turn{say("Done.")} })
	s.install()
	s.mustRun("fix the login")
	benchWake(b, s.conchHome, func(args ...string) (string, error) { return s.conchIn(s.dir, nil, args...) }, func(word string) bool {
		for _, r := range s.model.mainRequests() {
			if strings.Contains(r.text(), word) {
				return true
			}
		}
		return false
	})
}

func BenchmarkWakeOpenCode(b *testing.B) { benchPluginWake(b, "opencode") }

func BenchmarkWakePi(b *testing.B) { benchPluginWake(b, "pi") }

func benchPluginWake(b *testing.B, harness string) {
	m := newChatModel(b)
	turns := []chatTurn{reply("First.")}
	for range b.N {
		turns = append(turns, reply("Done."))
	}
	m.script("PROMPT-W", turns...)
	s := newPluginSession(b, harness, m)
	s.run("PROMPT-W: fix the login").ok(b)
	benchWake(b, s.conchHome, func(args ...string) (string, error) { return s.conchIn(s.dir, args...) }, func(word string) bool {
		for _, r := range m.requests("PROMPT-W") {
			if strings.Contains(r.all(), word) {
				return true
			}
		}
		return false
	})
}
