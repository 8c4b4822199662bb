package cli

import "github.com/spf13/cobra"

// hooksCommands adds the hooks capability's commands: subcommands of chat to
// chat, and returns the top-level ones.
func (a *app) hooksCommands(chat *cobra.Command) []*cobra.Command { return nil }
