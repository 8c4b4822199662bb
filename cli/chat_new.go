package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// chatNewOptions are conch chat new's words.
type chatNewOptions struct {
	title, folder, origin, parent, mode, wakeCmd, stopCmd, key string
	mcpOnly                                                    bool

	Home  homeRW
	Actor state.Actor
	Cwd   string
}

// newChatNewCmd is conch chat new; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newChatNewCmd(a *app, runF func(*chatNewOptions) error) *cobra.Command {
	o := &chatNewOptions{}
	cmd := &cobra.Command{
		Use:   "new --title T [--folder DIR] [--origin O] [--parent ID] [--mode M] [--wake-cmd CMD] [--stop-cmd CMD] [--key K]",
		Short: "Register a chat and print its id",
		Long: `Register a chat and print its id (c_1, c_2, … in order).

The folder defaults to the workspace preference, else the current folder.
The same --key gives the same chat. A chat made with --parent (a subagent)
gets at most its parent's mode, takes its parent's taint, and has an origin
no more yours than its parent's. Made from a chat, the chat is its parent
unless --parent names one of that chat's own children, and the same holds
of the maker: a chat that is not yours cannot make one that is. Wake and
stop commands are the harness's: a chat cannot set them.

Exit codes: 0 done, 2 bad value, 3 refused or no such parent.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			if err := checkArgs([]string{o.title}); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			o.Home, o.Actor, o.Cwd = a.homeRW(), a.actor(), a.env.Cwd
			return runChatNew(o)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&o.title, "title", "", "the chat's title (at most {{MaxTitle}} characters, cleaned)")
	f.StringVar(&o.folder, "folder", "", "the folder it works in")
	f.StringVar(&o.origin, "origin", "", `where it comes from: "", app:NAME, routine, peer, client, artifact`)
	f.StringVar(&o.parent, "parent", "", "the chat that spawned it")
	f.StringVar(&o.mode, "mode", "", "ask, auto or plan (default ask)")
	f.StringVar(&o.wakeCmd, "wake-cmd", "", "a shell command that starts a reply of this chat")
	f.StringVar(&o.stopCmd, "stop-cmd", "", "a shell command that stops this chat's running reply")
	f.StringVar(&o.key, "key", "", "an idempotency key: the same key gives the same chat")
	f.BoolVar(&o.mcpOnly, "mcp-only", false, "the chat is known only through conch mcp: its card says its hooks do not report")
	_ = cmd.MarkFlagRequired("title")
	return cmd
}

// runChatNew registers the chat and prints its id.
func runChatNew(o *chatNewOptions) error {
	folder := o.folder
	if folder == "" {
		if folder = o.Home.home.Workspace(); folder == "" {
			folder = o.Cwd
		}
	}
	in := state.NewChat{
		Title: render.Clean(o.title), Folder: absPath(o.Cwd, folder), Origin: o.origin, Parent: o.parent,
		Mode: o.mode, WakeCmd: o.wakeCmd, StopCmd: o.stopCmd, Key: o.key, MCPOnly: o.mcpOnly,
	}
	return o.Home.updateChat(o.Actor, func(tx *state.Tx) (*state.Chat, error) {
		return tx.Chats().Create(o.Actor, in)
	})
}
