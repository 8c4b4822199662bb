package cli

import "github.com/spf13/cobra"

// logCommands adds the log capability's commands: chat compacted and chat
// reset under chat; status, watch, unwatch and gc at the top.
func logCommands(a *app, chat *cobra.Command) []*cobra.Command {
	chat.AddCommand(newChatCompactedCmd(a, nil), newChatResetCmd(a, nil))
	return []*cobra.Command{newStatusCmd(a, nil), newWatchCmd(a, nil), newUnwatchCmd(a, nil), newGCCmd(a, nil)}
}
