package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/state"
)

func newHookQwen(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "qwen",
		Short: "Qwen Code's hook: reads one event on standard input and answers it",
		Long: `Qwen Code's hook (conch install qwen puts it in the settings). Qwen Code's
hooks speak Claude Code's protocol, with Qwen Code's tools
(run_shell_command, write_file, edit, read_file, web_fetch, …), so this
does what conch hook claude does, with Qwen Code's ways: UserPromptSubmit
fires again each time the tools' results go to the model (with no
prompt), which is not a new reply but a chance for the notes, mid-turn;
Qwen Code puts QWEN_CODE_SESSION_ID (and QWEN_CODE_AGENT_ID in a
subagent) in its shell, so the model's conch commands act as its chat; a
denied tool does not end the turn, so a stop denies the pending tool and
ends the turn at the next model request. The table of events, what Qwen
Code cannot do, and the version it was tested against are in conch help
integrations.

It never breaks the session it serves: any failure prints one warning
line on standard error and answers nothing.

Exit codes: 0, always.`,
		Args:               cobra.ArbitraryArgs,
		Annotations:        access(accessWrite),
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asksHelp(args) {
				return cmd.Help()
			}
			return a.runHook(state.HarnessQwen, nil, (*hook).decodeQwen)
		},
	}
}

// decodeQwen reads one of Qwen Code's events: Claude Code's, but for the
// sends of a turn that are not the person's. A UserPromptSubmit with no
// submitted_prompt is Qwen Code's own: with no prompt, the turn sending
// its tools' results (ToolResults); with one, Stop's block handed back as
// the next prompt, which goes on in the message's reply.
func (h *hook) decodeQwen() (harness.Event, error) {
	ev, err := h.decodeHook(claudeKind)
	if err != nil || ev.Kind != harness.PromptSubmit || h.p.Has("submitted_prompt") {
		return ev, err
	}
	if ev.Prompt == "" {
		ev.Kind = harness.ToolResults
		h.kind = ev.Kind
		return ev, nil
	}
	ev.Continued = h.messageReplyGoingOn(ev)
	return ev, nil
}
