package harness

import (
	_ "embed"

	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/state"
)

const (
	piName  = "pi"
	piTitle = "Pi"
)

// pi is Pi's adapter: conch's own extension reports its events (see
// opencode's for what both can do).
var pi = Adapter{
	Name:    piName,
	Title:   piTitle,
	Install: &piInstall,
	Use:     piName,
	Short:   piTitle + pluginShort + piName + pluginShortEnd,
	Long:    piTitle + pluginLong1 + piName + pluginLong2 + piTitle + pluginLong3 + piTitle + pluginLong4,
	Caps: Capabilities{
		Resume:  piResume,
		Context: hookContext, Deny: true, KeepGoing: true,
		ContextCap: 10000, StopBeforeTool: true, StopHeard: true, ShellChat: true,
	},
	Decode: decodePi,
	Encode: encodePlugin,
	Plugin: true,
}

// pi --help: "--session <path|id> Use specific session file or partial
// UUID", "--print, -p Non-interactive mode".
var piResume = &Resumer{
	Program:     "pi",
	Argv:        func(s string) []string { return []string{"--session", s} },
	Before:      func(string) []string { return []string{"-p"} },
	CarryValues: []string{"--provider", "--model"},
	Env:         []string{"PI_*", "ANTHROPIC_*", "OPENAI_*", "GEMINI_*", "*_API_KEY"},
	Says:        "pi --session SESSION -p",
}

// piKind is what each of the Pi extension's events means.
func piKind(name string, p Fields) Kind {
	switch name {
	case "session_start":
		return SessionStart
	case "before_agent_start":
		return PromptSubmit
	case "tool_call":
		return PreTool
	case "tool_result":
		return PostTool
	case "turn_end":
		switch p.Str("stop_reason") {
		case "aborted":
			return TurnInterrupted
		case "error":
			return TurnFailed
		}
		return TurnEnd
	case "session_before_compact":
		return Compacted
	case "session_shutdown":
		return SessionEnd
	}
	return -1
}

// decodePi reads one of the Pi extension's events. Pi asks the person
// nothing before a tool runs (it has no permissions): every session is
// auto.
func decodePi(h *Hook) (Event, error) {
	h.Event = h.P.Str("hook_event_name")
	ev, err := decodePlugin(h, piName, piKind(h.Event, h.P), piTool)
	ev.Mode = state.ModeAuto
	return ev, err
}

// piTool is one of Pi 0.73's tools in Claude Code's words.
func piTool(name string) (toolSpec, bool) {
	switch name {
	case "bash":
		return toolSpec{"Bash", map[string]string{"command": "command"}}, true
	case "read":
		return toolSpec{"Read", map[string]string{"path": "file_path"}}, true
	case "write":
		return toolSpec{"Write", map[string]string{"path": "file_path"}}, true
	case "edit":
		return toolSpec{"Edit", map[string]string{"path": "file_path"}}, true
	case "grep":
		return toolSpec{"Grep", nil}, true
	case "find":
		return toolSpec{"Glob", nil}, true
	case "ls":
		return toolSpec{"LS", nil}, true
	}
	return toolSpec{}, false
}

// piExtension is the extension conch install pi writes, whole: it runs
// conch hook pi at each event.
//
//go:embed plugins/pi.ts
var piExtension string

// piInstall is conch install pi: conch's extension, a file conch owns, in
// the folder Pi loads extensions from.
var piInstall = install.Recipe{
	Use:   "pi [--project | --user] [--remove]",
	Short: "Put conch's plugin where Pi loads it",
	Long: `Write conch's plugin for Pi: ~/.pi/agent/extensions/conch.ts ($PI_CODING_AGENT_DIR) with --user (the
default), .pi/extensions/conch.ts of the current folder with --project. The file is
conch's own, known by its first line; it runs conch hook pi at
each event. ` + installPluginLong + piAfter + installPluginExits,
	Where: "Pi folder",
	Runs:  "the plugin runs",
	Dir: func(e install.Env, project bool) string {
		return install.PluginDir(e, project, ".pi/extensions", "PI_CODING_AGENT_DIR", ".pi/agent", "extensions")
	},
	Do: func(r *install.Run) ([]*install.Result, error) {
		return r.Plugin("conch.ts", piExtension, []string{"session_start", "before_agent_start", "tool_call",
			"tool_result", "turn_end", "session_before_compact", "session_shutdown"})
	},
	After: piAfter,
}

// piAfter is said once conch install pi put the extension in.
const piAfter = "Pi loads it when it starts (or at /reload)."
