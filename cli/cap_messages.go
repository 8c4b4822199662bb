package cli

import "github.com/spf13/cobra"

// messagesCommands adds the messages capability's commands: chat message
// and chat stop under chat; messages, message pass|dismiss, requests,
// confirm and deny at the top.
func messagesCommands(a *app, chat *cobra.Command) []*cobra.Command {
	chat.AddCommand(newChatMessageCmd(a, nil), newChatStopCmd(a, nil))
	return []*cobra.Command{newMessagesCmd(a, nil), newMessageGroup(a), newRequestsCmd(a, nil), newConfirmCmd(a, nil), newDenyCmd(a, nil)}
}
