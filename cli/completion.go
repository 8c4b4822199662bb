package cli

import (
	"github.com/spf13/cobra"
)

func (a *app) newCompletion(root *cobra.Command) *cobra.Command {
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
			out := a.env.Out
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			case "fish":
				return root.GenFishCompletion(out, true)
			case "powershell":
				return root.GenPowerShellCompletionWithDesc(out)
			}
			return usage("completion: unknown shell %q (bash, zsh, fish, powershell)", args[0])
		}),
	}
}
