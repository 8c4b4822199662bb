package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// chatSetOptions are conch chat set's words.
type chatSetOptions struct {
	id                                                             string // the chat
	title, status, mode, inbound, goal, goalFile, wakeCmd, stopCmd string
	archived, browser, recovery                                    bool
	given                                                          map[string]bool // the flags given, by name

	Home  homeRW
	Actor state.Actor
	In    io.Reader // standard input, for a text given as -
	Cwd   string
}

// chatSetFlags are chat set's flags, each a change.
var chatSetFlags = []string{"title", "status", "archived", "mode", "inbound", "goal", "goal-file", "browser", "recovery", "wake-cmd", "stop-cmd"}

// newChatSetCmd is conch chat set; runF, when not nil, gets the checked
// options instead of the change (for tests).
func newChatSetCmd(a *app, runF func(*chatSetOptions) error) *cobra.Command {
	o := &chatSetOptions{given: map[string]bool{}}
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
	f.StringVar(&o.title, "title", "", "a new title")
	f.StringVar(&o.status, "status", "", "idle, needs-you or stopped")
	f.BoolVar(&o.archived, "archived", false, "archive it (=false to bring it back)")
	f.StringVar(&o.mode, "mode", "", "ask, auto or plan (the harness's)")
	f.StringVar(&o.inbound, "inbound", "", "messages from other chats: accept, hold or refuse")
	f.StringVar(&o.goal, "goal", "", `its goal ("" removes it)`)
	f.StringVar(&o.goalFile, "goal-file", "", "read the goal from a file (- for standard input)")
	f.BoolVar(&o.browser, "browser", false, "it has a browser page open (=false: none)")
	f.BoolVar(&o.recovery, "recovery", false, "stopped under conch, it will carry on by itself (=false: not)")
	f.StringVar(&o.wakeCmd, "wake-cmd", "", "the shell command that starts a reply (the harness's)")
	f.StringVar(&o.stopCmd, "stop-cmd", "", "the shell command that stops its reply (the harness's)")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		id, err := target(a.chat, args)
		if err != nil {
			return err
		}
		o.id = id
		for _, name := range chatSetFlags {
			if cmd.Flags().Changed(name) {
				o.given[name] = true
			}
		}
		if len(o.given) == 0 {
			return usage("chat set: nothing to change; give at least one flag")
		}
		if runF != nil {
			return runF(o)
		}
		o.Home, o.Actor, o.In, o.Cwd = a.homeRW(), a.actor(), a.env.In, a.env.Cwd
		return runChatSet(o)
	})
	return cmd
}

// runChatSet makes the change and prints the chat.
func runChatSet(o *chatSetOptions) error {
	var ch state.ChatChange
	set := func(name string) bool { return o.given[name] }
	if set("title") {
		t := render.Clean(o.title)
		ch.Title = &t
	}
	if set("goal") || set("goal-file") {
		g, err := readText(o.In, o.Cwd, o.goal, o.goalFile, set("goal"), "the goal")
		if err != nil {
			return err
		}
		ch.Goal = &g
	}
	strs := map[string]**string{"status": &ch.Status, "mode": &ch.Mode, "inbound": &ch.Inbound, "wake-cmd": &ch.WakeCmd, "stop-cmd": &ch.StopCmd}
	vals := map[string]*string{"status": &o.status, "mode": &o.mode, "inbound": &o.inbound, "wake-cmd": &o.wakeCmd, "stop-cmd": &o.stopCmd}
	for name, p := range strs {
		if set(name) {
			*p = vals[name]
		}
	}
	bools := map[string]**bool{"archived": &ch.Archived, "browser": &ch.Browser, "recovery": &ch.Recovery}
	bvals := map[string]*bool{"archived": &o.archived, "browser": &o.browser, "recovery": &o.recovery}
	for name, p := range bools {
		if set(name) {
			*p = bvals[name]
		}
	}
	return o.Home.updateChat(o.Actor, func(tx *state.Tx) (*state.Chat, error) {
		return tx.Chats().Set(o.Actor, o.id, ch)
	})
}
