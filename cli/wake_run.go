package cli

import (
	"errors"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

// wakeRunMax bounds how many times one wake-run starts its harness: once
// for its wake, again for each wake recorded while a run went.
const wakeRunMax = 8

// newWakeRunCmd is conch wake-run: the wake_cmd conch gives a chat whose
// harness session it can resume (issue 23). conch runs it, detached, for
// a wake; nobody types it.
func (a *app) newWakeRunCmd() *cobra.Command {
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
			return a.runWakeRun()
		}),
	}
}

// runWakeRun takes the chat's wake, runs its harness's resume with conch's
// prompt, and settles the wake when the harness exits.
func (a *app) runWakeRun() error {
	id := a.chat
	if !state.ValidID(id) {
		return usage("conch wake-run runs as a chat: CONCH_CHAT is not set")
	}
	start, _ := proc.Start(a.env.PID)
	self := state.Proc{PID: a.env.PID, Start: start}
	for range wakeRunMax {
		var w *state.WakeRun
		err := a.update(func(tx *state.Tx) (err error) { w, err = tx.ClaimWake(id, self); return err })
		if err != nil || w == nil {
			return err
		}
		argv := append(w.Argv, render.WakePrompt)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env, cmd.Dir = w.Env, w.Dir
		if err := cmd.Run(); err != nil && !errors.As(err, new(*exec.ExitError)) {
			a.printer().Warn("chat %s: its harness could not be started: %v", id, err)
		}
		again := false
		if err := a.update(func(tx *state.Tx) (err error) { again, err = tx.WakeRunEnded(id, self); return err }); err != nil || !again {
			return err
		}
	}
	return nil
}
