package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

type chatStopOptions struct {
	reason, reasonFile, key string
}

func (a *app) newChatStop() *cobra.Command {
	var o chatStopOptions
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
		return a.chatStop(args[0], cmd.Flags().Changed("reason"), &o)
	})
	return cmd
}

func (a *app) chatStop(id string, reasonSet bool, o *chatStopOptions) error {
	if !reasonSet && o.reasonFile == "" {
		return usage("give a reason: --reason R or --reason-file F")
	}
	reason, err := a.readText(o.reason, o.reasonFile, reasonSet, "the reason")
	if err != nil {
		return err
	}
	if err := checkArgs([]string{o.key}); err != nil {
		return err
	}
	in := state.StopIn{Target: id, Reason: reason, Key: o.key}
	var r *state.StopResult
	err = a.update(func(tx *state.Tx) (err error) {
		r, err = tx.StopChat(a.actor(), in)
		return err
	})
	if err != nil {
		return err
	}
	perr := a.printer().Value(render.StopView(r), render.StopAnswer(r))
	// A stop that asked the person answers exit 4 every time, retried with
	// its key after the person decided included: the same send, the same
	// answer (conch requests says how it ended). The request is made
	// whether or not its words could be written.
	if r.Request != nil && r.Request.AskedPerson {
		if perr != nil {
			a.warnCommitted(perr)
		}
		return &state.Error{Kind: state.ErrNeedsPerson, Msg: render.NeedsPerson(r.Request)}
	}
	return perr
}
