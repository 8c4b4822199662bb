package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

// wakeRunMax bounds how many times one wake-run starts its harness: once
// for its wake, again for each wake recorded while a run went.
const wakeRunMax = 8

// wakeRunOptions are conch wake-run's: no words, the chat it wakes.
type wakeRunOptions struct {
	IO   *render.Printer
	Home homeRW
	Chat string // the chat acting (CONCH_CHAT): the one woken
	PID  int    // this process, which the wake's record names
}

// newWakeRunCmd is conch wake-run: the wake_cmd conch gives a chat whose
// harness session it can resume (issue 23). conch runs it, detached, for
// a wake; nobody types it. runF, when not nil, gets the options instead
// of the run (for tests).
func newWakeRunCmd(a *app, runF func(*wakeRunOptions) error) *cobra.Command {
	o := &wakeRunOptions{}
	return &cobra.Command{
		Use:    state.WakeRunArg,
		Hidden: true,
		Short:  "Wake a chat by resuming its harness session headless (conch runs it)",
		Long: `Run by conch as a chat's wake_cmd, with CONCH_CHAT set: resumes the chat's
own harness session headless (claude -p --resume, codex exec resume, …) in
the chat's folder, with the harness's own variables its session started
with, and waits for it. A run that ends before a reply began ends the waits
on the chat saying so. See conch help integrations.

Exit codes: 0 done (or nothing to wake), 1 a record could not be read or written.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Chat, o.PID = a.printer(), a.homeRW(), a.chat, a.env.PID
			return runWakeRun(o)
		}),
	}
}

// runWakeRun takes the chat's wake, runs its harness's resume with conch's
// prompt, and settles the wake when the harness exits.
func runWakeRun(o *wakeRunOptions) error {
	id := o.Chat
	if !state.ValidID(id) {
		return usage("conch wake-run runs as a chat: CONCH_CHAT is not set")
	}
	start, _ := proc.Start(o.PID)
	self := state.Proc{PID: o.PID, Start: start}
	for range wakeRunMax {
		var w *state.WakeRun
		err := o.Home.update(func(tx *state.Tx) (err error) { w, err = tx.Wakes().Claim(id, self); return err })
		if err != nil || w == nil {
			return err
		}
		if w.Channel != "" {
			err := promptInto(w, render.WakePrompt)
			if err == nil {
				return o.Home.update(func(tx *state.Tx) error { return tx.Wakes().Sent(id, self) })
			}
			o.IO.Warn("chat %s: its open session took no prompt: %v", id, err)
		} else {
			argv := append(w.Argv, render.WakePrompt)
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env, cmd.Dir = w.Env, w.Dir
			if err := cmd.Run(); err != nil && !errors.As(err, new(*exec.ExitError)) {
				o.IO.Warn("chat %s: its harness could not be started: %v", id, err)
			}
		}
		again := false
		if err := o.Home.update(func(tx *state.Tx) (err error) { again, err = tx.Wakes().RunEnded(id, self); return err }); err != nil || !again {
			return err
		}
	}
	return nil
}

// promptTimeout bounds sending a prompt into an open session.
const promptTimeout = 10 * time.Second

// promptInto sends prompt into the open session w names, through its
// harness's own server (its adapter's PromptInto: OpenCode's), on this
// computer's loopback (state.LocalURL). One plain HTTP/1.1 request:
// net/http would cost every conch command its start-up.
func promptInto(w *state.WakeRun, prompt string) error {
	ad := harness.Of(w.Harness)
	if ad == nil || ad.PromptInto == nil {
		return fmt.Errorf("%s takes no prompt into an open session", harness.Title(w.Harness))
	}
	host := strings.TrimPrefix(w.Channel, "http://")
	r, err := ad.PromptInto(w.Session, prompt, func(k string) string { return envValue(w.Env, k) })
	if err != nil {
		return err
	}
	body := r.Body
	var req strings.Builder
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n", r.Method, r.Path, host, len(body))
	for _, h := range r.Header {
		req.WriteString(h + "\r\n")
	}
	req.WriteString("\r\n")
	conn, err := dialLoopback(host, promptTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, req.String()); err != nil {
		return err
	}
	if _, err := conn.Write(body); err != nil {
		return err
	}
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if f := strings.Fields(status); len(f) < 2 || !strings.HasPrefix(f[0], "HTTP/1.") || len(f[1]) != 3 || f[1][0] != '2' {
		return fmt.Errorf("its server answered %q", strings.TrimSpace(status))
	}
	return nil
}

// envValue is the value of variable k in env (KEY=VALUE), "" when unset.
func envValue(env []string, k string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, k+"="); ok {
			return v
		}
	}
	return ""
}
