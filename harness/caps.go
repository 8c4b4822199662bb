package harness

// Capabilities are what a harness can do with an answer, and what its
// sessions give conch beyond the events: Handle shapes every answer to
// them, so an encoder never has to judge what its harness cannot carry.
type Capabilities struct {
	// Context are the events whose answer can put text before the model
	// (the introduction, the notes, the guard's notes): at any other the
	// notes are not taken, and stay due for one that can say them.
	Context Kinds
	// Deny: the harness can refuse a tool at PreTool (a guard's deny or
	// ask, a stopped reply's pending tool). Else the guard's word is said
	// as a note where Context allows, and a stopped reply's tool runs: its
	// stop is said by the next event that can say it.
	Deny bool
	// KeepGoing: the harness can keep a turn going at TurnEnd, with a
	// prompt: a --start-reply message waiting for the chat is delivered
	// so. Else the turn ends, and the message wakes the chat as it would
	// any idle one.
	KeepGoing bool
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
	// SessionEnv is the variable the harness sets in its shell to name
	// the session the shell serves (its hooks' session id): a conch
	// command run there with no chat named acts as that session's chat.
	SessionEnv string
	// ShellSession: the harness sets SessionEnv in every shell command's
	// environment, reliably: a session first seen late still acts as its
	// chat, and is told so; a subagent's conch commands, in the shell it
	// shares with its session, act as its own chat.
	ShellSession bool
	// HostedSearch: the harness runs web searches itself, with no hook:
	// they are read from its session file at each turn's end.
	HostedSearch bool
	// ShellChat: the harness's plugin (conch's own) puts the chat's id in
	// the session's shell (CONCH_CHAT), from the answer that names it.
	ShellChat bool
	// AgentEnv is the variable the harness sets in a subagent's shell
	// commands to name the subagent (its hooks' agent_id): a conch command
	// run there acts as the subagent's child chat.
	AgentEnv string
	// RewritesShell: conch puts CONCH_CHAT in each shell command of the
	// model's that runs conch (the harness lets PreTool's answer change
	// a tool's arguments, and names no session in its shell): the
	// adapter's encoder does it, and the session is told so.
	RewritesShell bool
	// HiddenThreads: the harness runs threads of its own that report
	// their turns too (Codex's title generation calls notify): a
	// TurnComplete for a session linked to no chat, of which the harness
	// keeps no session file, is one of them, and nothing.
	HiddenThreads bool
	// PermissionTools are the tools the harness asks its Permission hook
	// about before they run, a hook whose answer can end the turn: a
	// stopped reply's PreTool lets them through to it.
	PermissionTools []string
	// PromptOnContinue: the harness fires its prompt hook for the prompt
	// an answer's Continue gave it; that prompt goes on in the reply the
	// Continue began, not the person's.
	PromptOnContinue bool
	// Resume is how the harness resumes a session headless (resume.go):
	// a chat whose session ended is woken so. nil: it cannot be.
	Resume *Resumer
}

// Kinds is a set of event kinds.
type Kinds uint32

// KindsOf is the set of the kinds given.
func KindsOf(kinds ...Kind) Kinds {
	var ks Kinds
	for _, k := range kinds {
		ks |= 1 << k
	}
	return ks
}

// Has says whether k is in the set.
func (ks Kinds) Has(k Kind) bool { return ks&(1<<k) != 0 }

// hookContext are the events of Claude Code's hook protocol whose answer
// adds to the model's context (Codex's hooks speak the same).
const hookContext = Kinds(1<<SessionStart | 1<<PromptSubmit | 1<<PreTool | 1<<PostTool)
