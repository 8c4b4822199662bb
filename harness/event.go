package harness

import (
	"encoding/json"

	"github.com/conch-sh/conch/state"
)

// Kind is what happened in a harness session, in conch's words: every
// harness's own event names map onto these (its decoder's table).
type Kind int

const (
	_ Kind = iota
	// SessionStart: a session began (or was resumed, or cleared into a
	// new one). Its chat is found or made and introduced.
	SessionStart
	// PromptSubmit: a prompt starts a turn (Event.Prompt); the person's
	// starts a reply, one the harness made itself goes on with the same.
	PromptSubmit
	// PreTool: a tool call is about to run (Event.Tool, Event.Input): a
	// step begins; the guard may deny it; a stopped reply ends here.
	PreTool
	// PostTool: a tool call ran (it may have failed): the files it
	// changed, outside taint from what it fetched, then the notes.
	PostTool
	// NeedsYou: the harness waits for the person (a permission prompt,
	// the idle prompt). Event.Notification says which, "" for any.
	NeedsYou
	// Compacted: the session's history is being compacted (log only).
	Compacted
	// TurnEnd: the session's turn ended (Event.LastWords): its reply
	// ends, unless a --start-reply message keeps the turn going.
	TurnEnd
	// SubagentEnd: a subagent's work ended: its child chat's reply ends.
	SubagentEnd
	// TurnFailed: an API error ended the turn: its reply ends as failed.
	TurnFailed
	// TurnInterrupted: the person interrupted the turn: its reply ends as
	// stopped.
	TurnInterrupted
	// TurnComplete: a turn ended, reported outside the hooks (Codex's
	// notify program): the reply ends with its last words, once a turn,
	// and a turn nothing reported the start of is a reply of its own.
	TurnComplete
	// SubagentStart: a subagent (Event.Agent) began: its child chat is
	// made and its reply begins.
	SubagentStart
	// SessionEnd: the session ended: its chat, and every subagent's still
	// running, is stopped.
	SessionEnd
	// Permission: the harness is about to ask permission for a tool call
	// (Event.Tool), and asks its hooks first (Copilot CLI's
	// permissionRequest, whatever it would decide): a stopped reply's tool
	// is denied there and the turn stopped.
	Permission
	// Words: the assistant finished a message (Event.LastWords) before
	// its turn ends (Cursor's afterAgentResponse): kept in the reply, for
	// the turn's end, which says none.
	Words
	// ToolResults: the turn sends its tools' results to the model (Qwen
	// Code fires UserPromptSubmit for that send too): the same reply; the
	// notes now, and a stopped reply's turn ends here.
	ToolResults
)

// Event is one harness event, as its decoder read it. Text fields are the
// harness's words, cleaned of NUL bytes; Handle judges the rest.
type Event struct {
	Kind    Kind
	Name    string // the harness's own name for the event, said in warnings and answers
	Harness string // its adapter's Name ("claude", "codex", …)

	Session   string // the harness's session id
	Agent     string // set when the event comes from inside a subagent
	AgentType string
	Folder    string // where the harness works now (absolute; "": the adapter's own folder)
	Mode      string // conch's mode for the harness's permission mode ("": it says none)
	Title     string // a title the harness gave the session
	Turn      string // the turn's id, when the harness gives turns ids

	// Transcript is the harness's own session file; AgentTranscript a
	// subagent's.
	Transcript      string
	AgentTranscript string

	// Argv is the harness's own command line, where its plugin gives it
	// at SessionStart (process.argv: a process may rename itself, and its
	// /proc line with it).
	Argv []string
	// Channel is where the harness takes a prompt into an open session
	// (OpenCode's server URL), given at SessionStart.
	Channel string

	Prompt string // PromptSubmit: the prompt
	// Delivered: PromptSubmit's prompt is one conch's plugin sent (a
	// message it delivered to keep a turn going), never the person's.
	Delivered bool
	Inputs    []string // TurnComplete: the turn's input messages

	Tool     string          // the harness's tool name (see Family)
	ToolUse  string          // the tool call's id
	Input    Fields          // the tool's input
	Response json.RawMessage // PostTool: the tool's response, read only when needed

	// Notification is what a NeedsYou waits for: "", permission_prompt,
	// idle_prompt, elicitation_dialog; any other is not about the person.
	Notification string

	// LastWords is what the assistant said last; HasLastWords whether the
	// event said it at all (else it is read from the transcript).
	LastWords    string
	HasLastWords bool
	// Continued: the turn goes on because an answer kept it going already
	// (at TurnEnd; at PromptSubmit, the prompt is that answer handed back:
	// the reply it started goes on, not one of the person's).
	Continued bool
	// Background: background work the turn started still runs.
	Background bool
}

// Answer is what conch means to say back to the harness for one event, in
// types, never in words: cli says it with render's (a Reply), and the
// adapter's Encode puts the Reply in the harness's JSON. Handle has
// already shaped it to what the harness can carry (Capabilities). The
// zero Answer says nothing.
type Answer struct {
	// Intro is the session's introduction to its chat (conch's prompt
	// section follows it).
	Intro *Intro
	// Guard is the guard's verdict on the pending tool: a note beside the
	// context when Permission is "", else the reason for Permission.
	Guard *state.Verdict
	// Stop: another chat stopped this reply. Its notice is the reason of
	// Permission when that is set, else the reason the turn ends.
	Stop *state.StopNotice
	// Permission refuses the pending tool (Deny) or asks the person first
	// (Ask), for the Guard's verdict or for the Stop.
	Permission string
	// EndTurn ends the turn (with Permission set, its reason says only
	// who stopped the reply: the denial says the notice).
	EndTurn bool
	// Notes are the chat's notes as gathered, said in at most NotesRoom
	// bytes (render's cut; what it leaves stays due): in the context, or,
	// with Continue, as the next prompt. Set only when they say something.
	Notes     *state.Notes
	NotesRoom int
	// Continue keeps the turn going, with the notes (the message that
	// keeps it going among them) as its next prompt.
	Continue bool
}

// IsZero says whether the answer says nothing.
func (a Answer) IsZero() bool { return a == Answer{} }

// Intro is how a session hears which chat it is, and how its own conch
// commands act as it.
type Intro struct {
	Chat string
	How  IntroHow
	// Env is the variable that names the session in its shell
	// (IntroLinked).
	Env string
}

// IntroHow is how a session's conch commands act as its chat.
type IntroHow int

const (
	// IntroNamed: they name it (--chat ID, or CONCH_CHAT set by hand).
	IntroNamed IntroHow = iota
	// IntroExported: conch put CONCH_CHAT in the session's shell.
	IntroExported
	// IntroLinked: the harness names the session in its shell (Env).
	IntroLinked
	// IntroRewritten: conch sets CONCH_CHAT in each shell command of the
	// model's that runs conch.
	IntroRewritten
)

// Reply is an Answer in words (cli makes it with render's), for the
// adapter's Encode to put in the harness's JSON.
type Reply struct {
	// Context is text added to the model's context.
	Context string
	// Permission refuses the pending tool ("deny") or asks the person
	// first ("ask"), for PermissionReason, which the model reads.
	Permission       string
	PermissionReason string
	// Stop ends the turn; StopReason says why (Claude Code shows it to
	// both).
	Stop       bool
	StopReason string
	// Continue keeps the turn going, with Prompt as its next prompt.
	Continue bool
	Prompt   string
	// SystemMessage is shown to the person, not the model.
	SystemMessage string
}

// IsZero says whether the reply says nothing.
func (r Reply) IsZero() bool { return r == Reply{} }

// Permission decisions.
const (
	Deny = "deny"
	Ask  = "ask"
)

// Wording is render's, as cli hands it to Handle: the harness cleans
// what it keeps of a harness's words and measures what an answer will
// say with them (a cap is in bytes said), and never says a sentence
// itself.
type Wording interface {
	// Clean is render.Clean; CutTitle render.CutTitle.
	Clean(s string) string
	CutTitle(s string, max int) string
	// Fit is what of the notes n render says in room bytes (room 0: no
	// bound), and how many bytes that is (0: it says nothing).
	Fit(n *state.Notes, room int) (shown *state.Notes, size int)
	// Size is how many bytes ans puts before the model: its context, or,
	// when it has none, its prompt.
	Size(ans Answer) int
}

// Env is what the adapter knows of the world outside the event: passed in,
// never read from globals.
type Env struct {
	Cwd  string // the adapter's own folder, for an event that names none
	PPID int    // the adapter's parent process
	// Chat is the chat the harness's environment names (CONCH_CHAT, or a
	// session the shell it was started from names), a valid id or "".
	Chat string
	// PID is the process that runs the chat (the harness): it reads
	// /proc, so it is asked only when a reply starts.
	PID    func() int
	Getenv func(string) string
	// Environ is the adapter's whole environment (the harness's), read
	// only at a session's start; nil: none is kept for a resume.
	Environ func() []string
	// UserHome is the person's home folder (for a harness's own files).
	UserHome string
	// Warn hears what went wrong without failing the event.
	Warn func(string)
	// Wording is render's, for what the harness cleans and measures
	// (required: cli hands it hookWording).
	Wording Wording
}
