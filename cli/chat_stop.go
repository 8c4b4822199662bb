package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// chatStopOptions are conch chat stop's words.
type chatStopOptions struct {
	id                      string // the chat whose reply is stopped
	reason, reasonFile, key string
	reasonSet               bool // --reason given

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
	In    io.Reader // standard input, for a text given as -
	Cwd   string
}

// newChatStopCmd is conch chat stop; runF, when not nil, gets the checked
// options instead of the stop (for tests).
func newChatStopCmd(a *app, runF func(*chatStopOptions) error) *cobra.Command {
	o := &chatStopOptions{}
	cmd := &cobra.Command{
		Use:   "stop ID --reason R [--reason-file F] [--key K]",
		Short: "As a chat: stop another chat's running reply",
		Long: `As a chat: stop the running reply of another of the person's chats, or of a
task this chat started. Only a chat the person is in may, and never in plan
mode.

A chat that is not working has nothing to stop: exit 0, "not working",
nothing recorded. In Ask mode, or once the asking chat has read something
from outside, or while its reply runs with nobody watching (a message
started it), it asks the person first: a request r_N that waits for conch
confirm (exit 4). In Auto, with nothing read, it stops the reply at once:
the chat's status becomes stopped, its stop command runs, its next step or
notes exits 5 with the notice, and its next reply hears who stopped it and
why. Both chats' cards (conch messages) say so.

--key K: the same key from the same chat is the same stop, with the same
answer.

Exit codes: 0 stopped, or not working; 2 usage; 3 refused (no such chat,
not offered, plan mode); 4 a request waits for the person.`,
		Args:        exactArgs(1, "one chat id"),
		Annotations: access(accessWrite),
	}
	f := cmd.Flags()
	f.StringVar(&o.reason, "reason", "", "why (said to the stopped chat)")
	f.StringVar(&o.reasonFile, "reason-file", "", "read the reason from a file (- for standard input)")
	f.StringVar(&o.key, "key", "", "an idempotency key: the same key is the same stop")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		o.id, o.reasonSet = args[0], cmd.Flags().Changed("reason")
		if !o.reasonSet && o.reasonFile == "" {
			return usage("give a reason: --reason R or --reason-file F")
		}
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor, o.In, o.Cwd = a.printer(), a.homeRW(), a.actor(), a.env.In, a.env.Cwd
		return runChatStop(o)
	})
	return cmd
}

// runChatStop stops the reply, or asks the person first, and says which.
func runChatStop(o *chatStopOptions) error {
	reason, err := readText(o.In, o.Cwd, o.reason, o.reasonFile, o.reasonSet, "the reason")
	if err != nil {
		return err
	}
	if err := checkArgs([]string{o.key}); err != nil {
		return err
	}
	in := state.StopIn{Target: o.id, Reason: reason, Key: o.key}
	var r *state.StopResult
	err = o.Home.update(func(tx *state.Tx) (err error) {
		r, err = tx.Replies().Stop(o.Actor, in)
		return err
	})
	if err != nil {
		return err
	}
	perr := o.IO.Value(render.StopView(r), render.StopAnswer(r))
	// A stop that asked the person answers exit 4 every time, retried with
	// its key after the person decided included: the same send, the same
	// answer (conch requests says how it ended). The request is made
	// whether or not its words could be written.
	if r.Request != nil && r.Request.AskedPerson {
		if perr != nil {
			warnCommitted(o.IO, perr)
		}
		return &state.Error{Kind: state.ErrNeedsPerson, Msg: render.NeedsPerson(r.Request)}
	}
	return perr
}
