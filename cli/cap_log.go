package cli

import "github.com/spf13/cobra"

// logCommands adds the log capability's commands: chat compacted and chat
// reset under chat; status, watch, unwatch and gc at the top.
func (a *app) logCommands(chat *cobra.Command) []*cobra.Command {
	chat.AddCommand(a.newChatCompactedCmd(nil), a.newChatResetCmd(nil))
	return []*cobra.Command{a.newStatusCmd(nil), a.newWatchCmd(nil), a.newUnwatchCmd(nil), a.newGCCmd(nil)}
}
