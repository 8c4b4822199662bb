package cli

import "github.com/spf13/cobra"

// logCommands adds the log capability's commands: subcommands of chat to
// chat, and returns the top-level ones.
func (a *app) logCommands(chat *cobra.Command) []*cobra.Command { return nil }
