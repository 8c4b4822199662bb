package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newReplyStart() *cobra.Command {
	var (
		person          bool
		message, folder string
		pid             int
	)
	cmd := &cobra.Command{
		Use:   "start [--person] [--message MSG] [--folder DIR] [--pid PID]",
		Short: "As a chat: a reply begins",
		Long: `As a chat: a reply begins. A reply that still runs is ended first, as not
finished.

--person: the person's own message started it (a new chain of messages
begins). A reply that conch's own wake started is the wake's, whatever
--person says, and so is one begun while that reply still runs: only a
reply begun after it ended may be the person's. --message: the message that started it; a chat with no title
takes one from it. --folder: where this reply works (default: the chat's).
--pid: the harness process running the reply (default: the parent of this
command); a reply whose process is gone did not finish.

Exit codes: 0 done, 2 usage or no chat acting, 3 no such chat.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
	}
	f := cmd.Flags()
	f.BoolVar(&person, "person", false, "the person's own message started it")
	f.StringVar(&message, "message", "", "the message that started it")
	f.StringVar(&folder, "folder", "", "the folder this reply works in")
	f.IntVar(&pid, "pid", 0, "the harness process that runs the reply")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := checkArgs([]string{message}); err != nil {
			return err
		}
		in := state.ReplyStart{Person: person, Title: render.CutTitle(message, state.MaxTitle), PID: a.harnessPID(pid)}
		if folder != "" {
			in.Folder = a.absPath(folder)
		}
		var r *state.Reply
		err := a.update(func(tx *state.Tx) error {
			c, err := tx.StartReply(a.actor(), in)
			if err == nil {
				r = c.Reply
			}
			return err
		})
		if err != nil {
			return err
		}
		return a.printer().Value(render.ReplyView(r), r.ID+"\n")
	})
	return cmd
}
