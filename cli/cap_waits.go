package cli

import "github.com/spf13/cobra"

// waitsCommands adds the waits capability's commands: subcommands of chat to
// chat, and returns the top-level ones.
func (a *app) waitsCommands(chat *cobra.Command) []*cobra.Command { return nil }
