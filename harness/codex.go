package harness

import (
	"encoding/json"
	"fmt"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

const codexName = "codex"

// codex is Codex's adapter: its hooks speak Claude Code's protocol, and
// its notify program reports each turn's end.
var codex = Adapter{
	Name:  codexName,
	Title: "Codex",
	Use:   "codex [JSON]",
	Short: "Codex's hook (an event on standard input) and its notify program (one JSON argument)",
	Long: `Codex's hook and notify program (conch install codex sets both up).

With no argument it is a Codex hook: it reads one hook event, JSON on
standard input, and answers in Codex's JSON, as conch hook claude does for
Claude Code (Codex's hooks speak the same protocol; Codex refuses
continue:false before a tool, so a stopped reply's tool is denied instead).
Interrupt ends the reply as stopped, SessionEnd stops the chat; the events
and what Codex 0.169 allows are in conch help integrations. On Windows
the TUI's app-server daemon is not told apart (conch reads no process's
command line there): its hooks act as the daemon's CONCH_CHAT.

With one argument it is Codex's notify program: Codex appends one JSON
object to the command, {"type": "agent-turn-complete", "thread-id", "turn-id",
"cwd", "input-messages", "last-assistant-message"}, when a turn ends. The
chat's reply ends with the last assistant message (once per turn, however
many of the hook and the notify program report it). Codex reads nothing
back from notify.

It never breaks the session it serves: any failure prints one warning line
on standard error and answers nothing.

Exit codes: 0, always.`,
	// Codex 0.169 refuses continue:false before a tool, and has no
	// permission prompt in PreToolUse. It exports no env file for
	// CONCH_CHAT, but its shell has CODEX_THREAD_ID.
	Caps: Capabilities{
		Resume:  codexResume,
		Context: hookContext, Deny: true, KeepGoing: true,
		ContextCap: 10000, SystemMessage: true, HostedSearch: true, HiddenThreads: true,
		EnvFiles: []string{"CODEX_ENV_FILE", "CLAUDE_ENV_FILE"}, SessionEnv: "CODEX_THREAD_ID",
	},
	// Codex's hooks name its shell Bash; older versions, and its
	// rollouts, name it so (codex's own binary, 0.171).
	Tools: []ToolWord{
		{"shell", "Bash"}, {"exec_command", "Bash"}, {"local_shell", "Bash"}, {"web_search", "WebSearch"},
	},
	Decode:      decodeCodex,
	Encode:      encodeHook,
	ArgEvent:    true,
	TrustsHooks: true,
	LastWords:   codexLastWords,
	Typed:       codexTyped,
}

// codex exec resume --help: "codex exec resume [OPTIONS] [SESSION_ID]
// [PROMPT]", "-c, --config <key=value>"; exec's sandbox is read-only
// unless the config says otherwise.
var codexResume = &Resumer{
	Program: "codex",
	Argv:    func(string) []string { return []string{"exec", "resume", "--skip-git-repo-check"} },
	Modes: []ModeFlags{
		{state.ModeAsk, []string{"-c", `sandbox_mode="read-only"`, "-c", `approval_policy="never"`}},
		{state.ModePlan, []string{"-c", `sandbox_mode="read-only"`, "-c", `approval_policy="never"`}},
	},
	Before:      func(s string) []string { return []string{s} },
	Env:         []string{"OPENAI_*", "CODEX_*", "AZURE_OPENAI_*"},
	Carry:       []string{"--dangerously-bypass-hook-trust"},
	Own:         codexOwn,
	CarryValues: []string{"-m", "--model"},
	ConfigEnv:   codexKeyVars,
	Says:        "codex exec resume SESSION",
}

// codexKind is what each of Codex's hook events means: Claude Code's
// names (codex speaks its protocol), and Interrupt.
func codexKind(event string) Kind {
	if event == "Interrupt" {
		// Esc in the TUI, a steer that interrupts, codex agents' x.
		return TurnInterrupted
	}
	return claudeKind(event)
}

// decodeCodex reads one of Codex's hook events, or, as the hook's
// argument, what it hands its notify program.
func decodeCodex(h *Hook) (Event, error) {
	if h.Arg {
		return decodeNotify(h)
	}
	ev, err := decodeHook(h, codexName, codexKind)
	if err != nil {
		return ev, err
	}
	if daemon := codexDaemon(h); daemon != 0 && (h.Kind == PromptSubmit || h.Kind == SessionStart) {
		// The session's chat is made at these two. The TUI the person is
		// in, where conch can tell which it is, says the chat it was
		// started for (CONCH_CHAT in its own environment: a wake's, or a
		// person's); the daemon's is another terminal's.
		tui := proc.CodexClient(daemon, ev.WorkFolder(h.Cwd), h.Getenv("CODEX_HOME"))
		if id := proc.Env(tui, "CONCH_CHAT"); state.ValidID(id) {
			h.Chat = id
		}
		if h.Kind == PromptSubmit {
			// The daemon outlives /quit, a turn still running going on in
			// it unseen: the reply's process is the TUI.
			h.HarnessPID = tui
		}
	}
	return ev, nil
}

// codexDaemon is the pid of Codex's app-server daemon when it runs this
// hook, else 0. The TUI's daemon runs every session of every terminal
// after the first, with the first one's environment: its CONCH_CHAT names
// no chat of this session's, so it is not read (the TUI's own is, by
// decodeCodex).
func codexDaemon(h *Hook) int {
	pid := proc.HarnessPID(h.PPID)
	if !proc.IsCodexDaemon(pid) {
		return 0
	}
	h.Chat = ""
	return pid
}

// decodeNotify reads what Codex hands its notify program: a turn ended.
func decodeNotify(h *Hook) (Event, error) {
	p := h.P
	h.Event = p.Str("type")
	if h.Event != "agent-turn-complete" {
		return Event{}, fmt.Errorf("notification type %q: only agent-turn-complete is known", h.Event)
	}
	h.Kind = TurnComplete
	var inputs []string
	_ = json.Unmarshal(p["input-messages"], &inputs)
	codexDaemon(h)
	return Event{
		Kind: h.Kind, Name: h.Event, Harness: codexName,
		Session: p.Str("thread-id"), Turn: p.Str("turn-id"), Folder: p.Str("cwd"),
		Inputs: inputs, LastWords: p.Str("last-assistant-message"),
	}, nil
}
