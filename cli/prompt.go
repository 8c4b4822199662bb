package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
)

func (a *app) newPrompt() *cobra.Command {
	return &cobra.Command{
		Use:   "prompt",
		Short: "Print the static prompt section that says how to use conch",
		Long: `Print the static prompt section that says how to use conch with the
person's other chats. It never changes while a session runs, so it can stay
in a session's system text.

Exit codes: 0 done.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			return a.printer().Value(render.PromptJSON{Prompt: render.Prompt}, render.Prompt)
		}),
	}
}
