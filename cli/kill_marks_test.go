//go:build linux

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The edge of a commit (issue 29): conch notes and every hook event that
// says notes, run as the real binary under strace from the fault
// campaign's prepared home, are killed with SIGKILL at each system call
// from their first commit on (the journal's rename into place) to their
// exit, and judged as a harness judges them: their output counts only when
// they exit 0. Then the receivers' notes run until quiet. Every message
// due must be shown by exactly one run that exited 0: a kill after the
// commit point leaves the process's receipt, and the next notes says again
// what the killed one said (state's receipts.go).
//
// Every point is run with CONCH_FAULT_ALL=1; otherwise every third, and
// always the last five (the receipt's removal, the exit).

// markCmds are the commands that say notes and mark them, and the tokens
// each should say.
func markCmds(user string) []faultCmd {
	hook := func(harness, event string) faultCmd {
		return faultCmd{name: "hook " + harness + " " + event, stdin: hookPayload(harness, event, user), args: []string{"hook", harness}, hook: true}
	}
	return []faultCmd{
		{name: "notes", chat: "c_2", args: []string{"notes"}},
		hook("claude", "SessionStart"),
		hook("claude", "UserPromptSubmit"),
		hook("claude", "PostToolUse"),
		hook("claude", "Stop"),
		hook("codex", "UserPromptSubmit"),
		hook("codex", "PostToolUse"),
	}
}

// afterCommit are the points of a clean run from its first commit (the
// journal renamed into place, or the single record renamed over its
// old one) on.
func afterCommit(pts []point) []point {
	for i, p := range pts {
		if strings.HasPrefix(p.syscall, "rename") && strings.Contains(p.call, ".commit.journal") {
			return pts[i:]
		}
	}
	return nil
}

func TestKillAfterTheCommitPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no fault campaign")
	}
	strace := needStrace(t)
	all := os.Getenv("CONCH_FAULT_ALL") != ""
	dir := openDir(t)
	r := newFaultRig(t, conchBinary(t, dir), strace, dir)
	homes := []string{filepath.Join(dir, "run0", "home"), filepath.Join(dir, "run1", "home")}
	r.prepare(homes[0])
	// A message that starts a reply, for the Claude session: said at its
	// prompt, or delivered by its Stop.
	r.must(homes[0], cmd("c_1", "chat", "message", "c_4", "tok-m5 start on the docs", "--start-reply"), 0)
	r.due["tok-m5"] = "c_4"
	r.pristine = filepath.Join(dir, "pristine")
	copyTree(t, homes[0], r.pristine)

	var mu sync.Mutex
	runs, kills := 0, 0
	for _, c := range markCmds(r.user) {
		if err := os.RemoveAll(homes[0]); err != nil {
			t.Fatal(err)
		}
		copyTree(t, r.pristine, homes[0])
		clean := r.runConch(homes[0], c, []string{"-e", "trace=" + strings.Join(faultSyscalls, ",")})
		if clean.code != 0 {
			t.Fatalf("%s: a clean run: exit %d: %s%s", c.name, clean.code, clean.out, clean.err)
		}
		pts := afterCommit(points(clean.trace, homes[0]))
		if len(pts) == 0 {
			t.Fatalf("%s: a clean run commits nothing through the journal", c.name)
		}
		var jobs []point
		for i, p := range pts {
			if all || i%3 == 0 || i >= len(pts)-5 {
				jobs = append(jobs, p)
			}
		}
		t.Logf("%s: %d points after the commit point, %d run", c.name, len(pts), len(jobs))
		next := make(chan point)
		var wg sync.WaitGroup
		for _, home := range homes {
			wg.Add(1)
			go func(home string) {
				defer wg.Done()
				for p := range next {
					killed, problems := r.killAt(home, c, p)
					mu.Lock()
					runs++
					if killed {
						kills++
					}
					for _, pr := range problems {
						t.Errorf("%s, killed at %s #%d %s: %s", c.name, p.syscall, p.n, p.call, pr)
					}
					mu.Unlock()
				}
			}(home)
		}
		for _, p := range jobs {
			next <- p
		}
		close(next)
		wg.Wait()
	}
	t.Logf("%d runs, %d of them killed at their point", runs, kills)
	if kills == 0 {
		t.Fatal("no run was killed: the campaign tested nothing")
	}
}

// killAt runs c in a copy of the prepared home, killed at p, and judges it
// as a harness does (judge).
func (r *faultRig) killAt(home string, c faultCmd, p point) (killed bool, problems []string) {
	t := r.t
	if err := os.RemoveAll(home); err != nil {
		t.Fatal(err)
	}
	copyTree(t, r.pristine, home)
	res := r.runConch(home, c, killedAt(p))
	return res.killed, r.judge(home, res)
}

// killedAt are strace's words for a SIGKILL at p.
func killedAt(p point) []string {
	return []string{"-e", "trace=" + p.syscall, "-e", "inject=" + p.syscall + ":signal=SIGKILL:when=" + strconv.Itoa(p.n)}
}

// judge judges a run as a harness does (its output counts only when it
// exits 0); then each receiver's notes runs until quiet, and every message
// due must have been shown by exactly one run that exited 0.
func (r *faultRig) judge(home string, res result) (problems []string) {
	if res.timedOut {
		return []string{"still running after 30 s"}
	}
	shown := map[string]int{}
	count := func(out string) {
		for tok := range r.due {
			shown[tok] += strings.Count(out, tok)
		}
	}
	if res.code == 0 && !res.killed {
		count(res.out) // the harness uses it
	}
	receivers := map[string]bool{}
	for _, to := range r.due {
		receivers[to] = true
	}
	for chat := range receivers {
		for range 3 {
			n := r.runConch(home, cmd(chat, "notes"), nil)
			if n.code == ExitStopped {
				r.runConch(home, cmd(chat, "reply", "start", "--pid", strconv.Itoa(os.Getpid())), nil)
				continue
			}
			if n.code != 0 {
				problems = append(problems, fmt.Sprintf("%s's notes: exit %d: %s", chat, n.code, firstLines(n.err, 2)))
			} else {
				count(n.out)
			}
			if !strings.Contains(n.out, "tok-") {
				break
			}
		}
	}
	for tok, to := range r.due {
		if shown[tok] != 1 {
			problems = append(problems, fmt.Sprintf("%s (due to %s) shown %d times by runs that exited 0 (the killed run: exit %d, killed %v)", tok, to, shown[tok], res.code, res.killed))
		}
	}
	if r.backend == nil {
		if doc := r.runConch(home, cmd("", "doctor"), nil); doc.code != 0 {
			problems = append(problems, "doctor: "+firstLines(doc.out+doc.err, 4))
		}
	}
	return problems
}
