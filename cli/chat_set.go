package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newChatSet() *cobra.Command {
	var (
		title, status, mode, inbound, goal, goalFile, wakeCmd, stopCmd string
		archived, browser, recovery                                    bool
	)
	cmd := &cobra.Command{
		Use:   "set [ID] [--title T] [--status S] [--archived[=false]] [--mode M] [--inbound I] [--goal G] [--browser[=false]] [--recovery[=false]] [--wake-cmd CMD] [--stop-cmd CMD]",
		Short: "Change a chat (default: the chat acting)",
		Long: `Change a chat (default: the chat acting). Boolean flags take =false to clear.

Who may change what: a chat may change its own title, status, goal,
browser, recovery and archived; the goal of a chat it spawned; and its own
inbound toward stricter only (accept → hold → refuse). mode, wake_cmd and
stop_cmd are the harness's (no chat acting). Letting more messages in is the
person's press: no chat acting, at a terminal.

--status is idle, needs-you or stopped (working is derived from a running
reply). A status other than idle ends the running reply, and the waits on
the chat.

Exit codes: 0 done, 2 bad value, 3 refused or no such chat.`,
		Args:        maxArgs(1, "one chat id"),
		Annotations: access(accessWrite),
	}
	f := cmd.Flags()
	f.StringVar(&title, "title", "", "a new title")
	f.StringVar(&status, "status", "", "idle, needs-you or stopped")
	f.BoolVar(&archived, "archived", false, "archive it (=false to bring it back)")
	f.StringVar(&mode, "mode", "", "ask, auto or plan (the harness's)")
	f.StringVar(&inbound, "inbound", "", "messages from other chats: accept, hold or refuse")
	f.StringVar(&goal, "goal", "", `its goal ("" removes it)`)
	f.StringVar(&goalFile, "goal-file", "", "read the goal from a file (- for standard input)")
	f.BoolVar(&browser, "browser", false, "it has a browser page open (=false: none)")
	f.BoolVar(&recovery, "recovery", false, "stopped under conch, it will carry on by itself (=false: not)")
	f.StringVar(&wakeCmd, "wake-cmd", "", "the shell command that starts a reply (the harness's)")
	f.StringVar(&stopCmd, "stop-cmd", "", "the shell command that stops its reply (the harness's)")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		id, err := a.target(args)
		if err != nil {
			return err
		}
		var ch state.ChatChange
		set := func(name string) bool { return cmd.Flags().Changed(name) }
		if set("title") {
			t := render.Clean(title)
			ch.Title = &t
		}
		if set("goal") || set("goal-file") {
			g, err := a.readText(goal, goalFile, set("goal"), "the goal")
			if err != nil {
				return err
			}
			ch.Goal = &g
		}
		strs := map[string]**string{"status": &ch.Status, "mode": &ch.Mode, "inbound": &ch.Inbound, "wake-cmd": &ch.WakeCmd, "stop-cmd": &ch.StopCmd}
		vals := map[string]*string{"status": &status, "mode": &mode, "inbound": &inbound, "wake-cmd": &wakeCmd, "stop-cmd": &stopCmd}
		for name, p := range strs {
			if set(name) {
				*p = vals[name]
			}
		}
		bools := map[string]**bool{"archived": &ch.Archived, "browser": &ch.Browser, "recovery": &ch.Recovery}
		bvals := map[string]*bool{"archived": &archived, "browser": &browser, "recovery": &recovery}
		for name, p := range bools {
			if set(name) {
				*p = bvals[name]
			}
		}
		if ch == (state.ChatChange{}) {
			return usage("chat set: nothing to change; give at least one flag")
		}
		return a.updateChat(func(tx *state.Tx) (*state.Chat, error) {
			return tx.SetChat(a.actor(), id, ch)
		})
	})
	return cmd
}
