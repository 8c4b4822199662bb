package cli

import "github.com/spf13/cobra"

// messagesCommands adds the messages capability's commands: subcommands of chat to
// chat, and returns the top-level ones.
func (a *app) messagesCommands(chat *cobra.Command) []*cobra.Command { return nil }
