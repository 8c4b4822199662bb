package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
)

// promptOptions are conch prompt's words.
type promptOptions struct {
	IO *render.Printer
}

// newPromptCmd is conch prompt; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newPromptCmd(a *app, runF func(*promptOptions) error) *cobra.Command {
	o := &promptOptions{}
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
			if runF != nil {
				return runF(o)
			}
			o.IO = a.printer()
			return runPrompt(o)
		}),
	}
}

// runPrompt prints it.
func runPrompt(o *promptOptions) error {
	return o.IO.Value(render.PromptJSON{Prompt: render.Prompt}, render.Prompt)
}
