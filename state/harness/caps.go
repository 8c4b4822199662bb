package harness

import "github.com/conch-sh/conch/state"

// Capabilities are what a harness can do with an answer, and what its
// sessions give conch beyond the events: Handle shapes every answer to
// them, so an encoder never has to judge what its harness cannot carry.
type Capabilities struct {
	// ContextCap is the most bytes an answer's text for the model may
	// hold (Claude Code caps additionalContext, and a reason, at 10,000
	// UTF-16 units, never fewer than the bytes).
	ContextCap int
	// StopBeforeTool: the harness can end the turn at PreTool (else a
	// stopped reply's pending tool is only denied, and the turn goes on).
	StopBeforeTool bool
	// StopHeard: an answer that stops the turn is read where the turn
	// ends, so the stop counts as heard (else the next reply's notes say
	// it).
	StopHeard bool
	// Ask: the harness can ask the person before a tool runs (else the
	// guard's ask is a denial that says to ask the person).
	Ask bool
	// SystemMessage: the harness shows an answer's SystemMessage to the
	// person, for every event whose answer it reads (a locked home is
	// said there).
	SystemMessage bool
	// EnvFiles are the variables that name a file the harness sources
	// into the session's shell: SessionStart exports CONCH_CHAT there.
	EnvFiles []string
	// ShellSession is the variable the harness sets in every shell
	// command's environment to name the session, when conch's commands
	// there can rely on it (a session first seen late still acts as its
	// chat, and is told so).
	ShellSession string
	// HostedSearch: the harness runs web searches itself, with no hook:
	// they are read from its session file at each turn's end.
	HostedSearch bool
}

// Of is a harness's capabilities; a harness conch does not know has none.
func Of(harness string) Capabilities {
	switch harness {
	case state.HarnessClaude:
		return Capabilities{
			ContextCap: 10000, StopBeforeTool: true, StopHeard: true, Ask: true,
			EnvFiles: []string{"CLAUDE_ENV_FILE"}, ShellSession: "CLAUDE_CODE_SESSION_ID",
		}
	case state.HarnessCodex:
		// Codex 0.169 refuses continue:false before a tool, and has no
		// permission prompt in PreToolUse.
		return Capabilities{
			ContextCap: 10000, SystemMessage: true, HostedSearch: true,
			EnvFiles: []string{"CODEX_ENV_FILE", "CLAUDE_ENV_FILE"},
		}
	}
	return Capabilities{}
}

// ShowsSystemMessage says whether the harness shows an answer's
// SystemMessage for the event: one whose answer it reads (not SessionEnd,
// nor a turn reported outside the hooks).
func ShowsSystemMessage(harness string, ev Kind) bool {
	return Of(harness).SystemMessage && ev != 0 && ev != SessionEnd && ev != TurnComplete
}
