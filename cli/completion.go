package cli

import (
	"io"

	"github.com/spf13/cobra"
)

// completionOptions are conch completion's words.
type completionOptions struct {
	shell string

	Out io.Writer
}

// newCompletionCmd is conch completion, for the tree under root; runF,
// when not nil, gets the options instead of the script (for tests).
func newCompletionCmd(a *app, root *cobra.Command, runF func(*completionOptions) error) *cobra.Command {
	o := &completionOptions{}
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print a shell completion script. For bash:

  source <(conch completion bash)

Exit codes: 0 done, 2 unknown shell.`,
		Args:        exactArgs(1, "a shell name"),
		ValidArgs:   []string{"bash", "zsh", "fish", "powershell"},
		Annotations: access(accessNone),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			o.shell = args[0]
			if runF != nil {
				return runF(o)
			}
			o.Out = a.env.Out
			return runCompletion(root, o)
		}),
	}
}

// runCompletion prints the script for the shell.
func runCompletion(root *cobra.Command, o *completionOptions) error {
	out := o.Out
	switch o.shell {
	case "bash":
		return root.GenBashCompletionV2(out, true)
	case "zsh":
		return root.GenZshCompletion(out)
	case "fish":
		return root.GenFishCompletion(out, true)
	case "powershell":
		return root.GenPowerShellCompletionWithDesc(out)
	}
	return usage("completion: unknown shell %q (bash, zsh, fish, powershell)", o.shell)
}
