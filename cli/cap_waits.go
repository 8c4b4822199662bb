package cli

import "github.com/spf13/cobra"

// waitsCommands adds the waits capability's commands: subcommands of chat to
// chat, and returns the top-level ones (conch wait chat|task|list|cancel).
func waitsCommands(a *app, chat *cobra.Command) []*cobra.Command {
	wait := group("wait", "Wait for another chat, or a task this chat started")
	wait.AddCommand(newWaitForCmd(a, waitChat, nil), newWaitForCmd(a, waitTask, nil), newWaitListCmd(a, nil), newWaitCancelCmd(a, nil))
	return []*cobra.Command{wait}
}
