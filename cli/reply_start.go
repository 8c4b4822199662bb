package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// replyStartOptions are conch reply start's words.
type replyStartOptions struct {
	person          bool
	message, folder string
	pid             int // 0: the parent of this command

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
	Cwd   string
	PID   int // the harness process running the reply: --pid, else found
}

// newReplyStartCmd is conch reply start; runF, when not nil, gets the
// checked options instead of the start (for tests).
func newReplyStartCmd(a *app, runF func(*replyStartOptions) error) *cobra.Command {
	o := &replyStartOptions{}
	cmd := &cobra.Command{
		Use:   "start [--person] [--message MSG] [--folder DIR] [--pid PID]",
		Short: "As a chat: a reply begins",
		Long: `As a chat: a reply begins. A reply that still runs is ended first, as not
finished.

--person: the person's own message started it (a new chain of messages
begins). A reply that conch's own wake started is the wake's, whatever
--person says, and so is one begun while that reply still runs: only a
reply begun after it ended may be the person's. --message: the message that started it; a chat with no title
takes one from it. --folder: where this reply works (default: the chat's);
where the chat's claims may reach moves with it only when the person runs
this at a terminal (a harness's hook moves it by itself), never when a
chat's model runs it from its shell.
--pid: the harness process running the reply (default: the parent of this
command); a reply whose process is gone did not finish.

Exit codes: 0 done, 2 usage or no chat acting, 3 no such chat.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
	}
	f := cmd.Flags()
	f.BoolVar(&o.person, "person", false, "the person's own message started it")
	f.StringVar(&o.message, "message", "", "the message that started it")
	f.StringVar(&o.folder, "folder", "", "the folder this reply works in")
	f.IntVar(&o.pid, "pid", 0, "the harness process that runs the reply")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := checkArgs([]string{o.message}); err != nil {
			return err
		}
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor, o.Cwd, o.PID = a.printer(), a.homeRW(), a.actor(), a.env.Cwd, a.harnessPID(o.pid)
		return runReplyStart(o)
	})
	return cmd
}

// runReplyStart starts the acting chat's reply and prints its id.
func runReplyStart(o *replyStartOptions) error {
	// Only the person, at a terminal, moves where the chat's claims reach:
	// a chat's model runs this from its own shell too.
	in := state.ReplyStart{Person: o.person, Title: render.CutTitle(o.message, state.MaxTitle), PID: o.PID, Reach: o.Actor.Terminal}
	if o.folder != "" {
		in.Folder = absPath(o.Cwd, o.folder)
	}
	var r *state.Reply
	err := o.Home.update(func(tx *state.Tx) error {
		c, err := tx.Replies().Start(o.Actor, in)
		if err == nil {
			r = c.Reply
		}
		return err
	})
	if err != nil {
		return err
	}
	return o.IO.Value(render.ReplyView(r), r.ID+"\n")
}
