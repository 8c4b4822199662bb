package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newHookQwen() *cobra.Command {
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
			return a.runHook(state.HarnessQwen, nil, (*hook).handleQwen)
		},
	}
}

// handleQwen does what one of Qwen Code's events means: Claude Code's
// protocol (handle), but for the sends of a turn that are not the
// person's.
func (h *hook) handleQwen() error {
	h.event = h.p.str("hook_event_name")
	if h.event == "UserPromptSubmit" && !h.p.has("submitted_prompt") {
		if h.p.str("prompt") == "" {
			return h.qwenGoesOn()
		}
		// Stop's block hands its reason back as the next prompt (a send
		// of Qwen Code's "Hook" kind, with no submitted_prompt): the
		// message's reply goes on.
		h.continued = h.messageReplyGoingOn()
	}
	return h.handle()
}

// qwenGoesOn: the turn sends its tools' results to the model (Qwen Code
// fires UserPromptSubmit for that send too, with no prompt). The reply
// goes on; the notes reach the model now, and a stopped reply's turn ends
// here ({"continue": false} keeps the send from being made).
func (h *hook) qwenGoesOn() error {
	if h.p.str("agent_id") != "" {
		return nil // a subagent's send: its notes are its parent's to hear
	}
	look := h.sessionIn(false)
	look.Mode, look.Transcript = "", ""
	var c *state.Chat
	if err := h.a.view(func(v *state.View) (err error) { c, err = v.FindHarnessChat(look); return err }); err != nil {
		return err
	}
	if c != nil && c.Reply == nil {
		if n := c.StopPending(); n != nil {
			// Another chat stopped the reply; its pending tool was denied
			// and the reply ended, but Qwen Code goes on: the turn ends
			// here, and the stop is heard.
			return h.sayStop(c, stopAnswer(render.StopLine(*n)))
		}
	}
	if c == nil || c.Reply == nil {
		return h.handle() // no reply running (conch was set up mid-turn): the turn is one
	}
	return h.withNotes(c, h.context, stopAnswer)
}
