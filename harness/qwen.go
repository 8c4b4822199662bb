package harness

import (
	"path/filepath"

	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/state"
)

const qwenName = "qwen"

// qwen is Qwen Code's adapter: its hooks speak Claude Code's protocol,
// with Qwen Code's tools and its own sends of a turn (decodeQwen).
var qwen = Adapter{
	Name:    qwenName,
	Title:   "Qwen Code",
	Install: &qwenInstall,
	Use:     "qwen",
	Short:   "Qwen Code's hook: reads one event on standard input and answers it",
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
	// Qwen Code 0.24.4 speaks Claude Code's protocol, but a denied tool
	// (or continue:false before or after one) only fails that call: its
	// turn ends at the next send of the tools' results (ToolResults). Its
	// shell has QWEN_CODE_SESSION_ID, and QWEN_CODE_AGENT_ID in a
	// subagent's; it sources no env file.
	Caps: Capabilities{
		Resume:  qwenResume,
		Context: hookContext | 1<<ToolResults, Deny: true, KeepGoing: true,
		ContextCap: 10000, Ask: true,
		SessionEnv: "QWEN_CODE_SESSION_ID", ShellSession: true, AgentEnv: "QWEN_CODE_AGENT_ID",
	},
	// Qwen Code 0.24's tool names (its ToolNames); read_many_files is
	// Gemini CLI's, whose tools Qwen Code's began as.
	Tools: []ToolWord{
		{"write_file", "Write"}, {"edit", "Edit"}, {"notebook_edit", "NotebookEdit"}, {"read_file", "Read"},
		{"read_many_files", "Glob"}, {"grep_search", "Grep"}, {"glob", "Glob"}, {"list_directory", "LS"},
		{"web_fetch", "WebFetch"}, {"web_search", "WebSearch"}, {"run_shell_command", "Bash"},
	},
	Decode: decodeQwen,
	Encode: encodeHook,
}

// qwen --help: "-r, --resume Resume a specific session by its ID",
// "--approval-mode plan|default|auto-edit|auto|yolo", "query Positional
// prompt. Defaults to one-shot" (-p is deprecated).
var qwenResume = &Resumer{
	Program: "qwen",
	Argv:    func(s string) []string { return []string{"--resume", s} },
	Modes: []ModeFlags{
		{state.ModeAsk, []string{"--approval-mode", "default"}}, {state.ModePlan, []string{"--approval-mode", "plan"}},
	},
	Own:         approvalOwn,
	CarryValues: []string{"-m", "--model"},
	Env:         []string{"QWEN_*", "OPENAI_*", "DASHSCOPE_*", "GEMINI_*", "GOOGLE_*", "*_API_KEY"},
	Says:        "qwen --resume SESSION",
}

// decodeQwen reads one of Qwen Code's events: Claude Code's, but for the
// sends of a turn that are not the person's. A UserPromptSubmit with no
// submitted_prompt is Qwen Code's own: with no prompt, the turn sending
// its tools' results (ToolResults); with one, Stop's block handed back as
// the next prompt, which goes on in the message's reply.
func decodeQwen(h *Hook) (Event, error) {
	ev, err := decodeHook(h, qwenName, claudeKind)
	if err != nil || ev.Kind != PromptSubmit || h.P.Has("submitted_prompt") {
		return ev, err
	}
	if ev.Prompt == "" {
		ev.Kind = ToolResults
		h.Kind = ev.Kind
		return ev, nil
	}
	ev.Continued = messageReplyGoingOn(h, ev)
	return ev, nil
}

// qwenInstall is conch install qwen: conch's hooks in Qwen Code's
// settings.json.
var qwenInstall = install.Recipe{
	Use:   "qwen [--project | --user] [--remove]",
	Short: "Put conch's hooks in Qwen Code's settings",
	Long: `Put conch's hooks in Qwen Code's settings: ~/.qwen/settings.json with
--user (the default), .qwen/settings.json of the current folder with
--project (Qwen Code runs a project's hooks only in a trusted folder).
Every hook and setting already there is kept; conch's own (a command
"conch hook qwen") is added once, so running it again changes nothing.
The file as it was is kept beside it (settings.json.bak-TIME), and the new
one is written whole, never half. --remove takes out conch's hooks and
nothing else. Qwen Code reads the hooks when a session starts (or when
its /hooks menu is opened).

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
	MCP:   "settings.json",
	Where: ".qwen/settings.json",
	Dir: func(e install.Env, project bool) string {
		if project {
			return filepath.Join(e.Cwd, ".qwen")
		}
		return filepath.Join(e.Home, ".qwen")
	},
	Do: func(r *install.Run) ([]*install.Result, error) {
		res, err := r.HookFile(filepath.Join(r.Dir, "settings.json"), qwenHooks(r.Conch))
		if err != nil {
			return nil, err
		}
		return r.WithMCP([]*install.Result{res}, filepath.Join(r.Dir, "settings.json"), install.MCPServers)
	},
	After: "Qwen Code reads them when a session starts; a project's hooks run only in a trusted folder.",
}

// qwenHooks are conch's hooks in Qwen Code's settings: Claude Code's
// events (Qwen Code keeps its protocol), tool events matching every tool,
// timeouts in seconds.
func qwenHooks(conch string) install.Hooks {
	h := install.Hooks{Harness: qwenName, Command: install.Command(conch, qwenName)}
	for _, e := range []struct{ name, matcher string }{
		{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PreToolUse", "*"}, {"PostToolUse", "*"},
		{"PostToolUseFailure", "*"}, {"PermissionRequest", "*"}, {"Notification", ""}, {"PreCompact", ""},
		{"Stop", ""}, {"StopFailure", ""}, {"SubagentStart", ""}, {"SubagentStop", ""}, {"SessionEnd", ""},
	} {
		h.Events = append(h.Events, install.Event{Name: e.name, Matcher: e.matcher, Timeout: install.HookTimeout})
	}
	return h
}
