package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/state"
)

// Adapter is one harness conch speaks to, as one value in its own file
// (claude.go, codex.go, …): its name and title, the help of conch hook
// NAME, what it can carry (Capabilities, with how to resume it), how its
// events read (Decode) and how an answer is put in its JSON (Encode), its
// install recipe (conch install NAME) and its session files. Nothing
// outside that file says its name: a harness is added with its file and
// its line in Adapters (and its recorded payloads and its e2e kit).
type Adapter struct {
	// Name is the harness's id: conch hook NAME, conch install NAME, a
	// session link's harness.
	Name string
	// Title is the harness's own name, as conch says it (Claude Code).
	Title string
	// Use, Short and Long are conch hook NAME's help.
	Use, Short, Long string
	// Install is how conch puts itself into the harness's configuration
	// and takes itself out again: conch install NAME.
	Install *install.Recipe
	// Caps are what the harness can carry, and what its sessions give
	// conch beyond the events.
	Caps Capabilities
	// Tools are the harness's own tools in Claude Code's words (the
	// tool-to-family table's), where their names are not Claude Code's.
	Tools []ToolWord
	// Decode reads the event the hook was handed (h.P) into an Event,
	// naming it in h.Event and h.Kind; a zero Event is one conch leaves
	// alone, ErrNothing one that means nothing.
	Decode func(h *Hook) (Event, error)
	// Encode is a reply in the harness's own JSON, for what it reads at
	// h.Kind; nil: nothing it reads.
	Encode func(h *Hook, r Reply) any
	// Plugin: the harness runs conch's own plugin, which reads every
	// event's answer, the chat the event is about even when conch has
	// nothing else to say (Encode runs for a reply that says nothing),
	// and shows no systemMessage.
	Plugin bool
	// ArgEvent: the harness may hand the event as the hook's last
	// argument, not on standard input (Codex's notify program).
	ArgEvent bool
	// TrustsHooks: the harness runs hooks only once the person trusts
	// them (Codex's review), which fixing a session's hooks says.
	TrustsHooks bool
	// PromptInto, when set, is how a prompt goes into one of the
	// harness's open sessions, through the server its session names
	// (Event.Channel): one JSON request, given the session's environment.
	PromptInto func(session, prompt string, getenv func(string) string) (PromptRequest, error)
	// LastWords is the last text the assistant wrote, in a session file's
	// rows (nil: conch reads no session file of the harness's).
	LastWords func(rows [][]byte) string
	// Typed is what a person typed in one row of a session file ("" for
	// none); nil: the harness's sessions cannot be adopted.
	Typed func(row []byte) string
}

// Adapters are the harnesses conch has adapters for, one line each. A
// session's shell variables are read in this order (Codex's before Claude
// Code's: a Codex started inside Claude Code's shell has both).
var Adapters = []*Adapter{
	&codex,
	&claude,
	&copilot,
	&cursor,
	&opencode,
	&pi,
	&qwen,
	&gemini,
}

// Of is the adapter of the harness named, nil for one conch does not know.
func Of(name string) *Adapter {
	for _, a := range Adapters {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// CapsOf are the capabilities of the harness named; one conch does not
// know has none.
func CapsOf(name string) Capabilities {
	if a := Of(name); a != nil {
		return a.Caps
	}
	return Capabilities{}
}

// Title is the harness's own name (Claude Code), as conch says it; a
// harness conch does not know is said by its id.
func Title(name string) string {
	if a := Of(name); a != nil {
		return a.Title
	}
	return name
}

// Names are the adapters' names, in the order of Adapters.
func Names() []string {
	names := make([]string, len(Adapters))
	for i, a := range Adapters {
		names[i] = a.Name
	}
	return names
}

// Adoptable are the harnesses whose sessions conch can adopt (their
// session files say what the person typed), by name.
func Adoptable() []string {
	var names []string
	for _, a := range Adapters {
		if a.Typed != nil {
			names = append(names, a.Name)
		}
	}
	slices.Sort(names)
	return names
}

// PromptRequest is a prompt's request to a harness's own server: its
// method and path, its JSON body, and header lines ("Name: value") beside
// the ones every request has.
type PromptRequest struct {
	Method, Path string
	Body         []byte
	Header       []string
}

// Hook is one run of an adapter's hook: the payload it was handed and the
// world around it, and what Decode found beside the event, for Encode and
// for cli.
type Hook struct {
	// P is the event as the harness sent it; Arg says it came as the
	// hook's argument (ArgEvent).
	P   Fields
	Arg bool
	// Home is the home the event is about (a decoder reads it without the
	// lock, as a hook sees a session before handling it).
	Home     *state.Home
	Cwd      string
	PPID     int
	Getenv   func(string) string
	UserHome string
	// PID is the process that runs the harness (it reads /proc).
	PID func() int
	// Chat is the chat the harness's environment names, a valid id or "":
	// a decoder that knows better sets it (Codex's TUI, not its daemon).
	Chat string
	// HarnessPID, when a decoder sets it, is the process that runs the
	// reply, where the hook's parent is not (Codex's daemon).
	HarnessPID int

	// Event and Kind are the harness's name for the event and what it
	// means, once Decode has read it.
	Event string
	Kind  Kind
	// Ev is the event Decode returned, for Encode.
	Ev Event
	// Then is a second event the one decoded brings (Gemini CLI's
	// invoke_agent call is a subagent's start or end too), handled after
	// it; its answer is said only when the first said none.
	Then *Event
	// Input, when set, is the tool's input as the harness is to run it
	// (a harness that lets a hook rewrite a tool's arguments): Encode
	// answers it, even where the reply says nothing else.
	Input map[string]json.RawMessage
}

// ErrNothing is a decoder's word for an event that means nothing in conch
// (Gemini CLI's PreCompress before a request it does not compress).
var ErrNothing = errors.New("nothing to do")

// unknownEvent is a decoder's error for an event name it does not know.
func unknownEvent(name string) error {
	return fmt.Errorf("unknown event %q: nothing done", name)
}

// errNoEventName is a decoder's error for an event that names none.
var errNoEventName = errors.New("the event has no hook_event_name")

// ShowsSystemMessage says whether the harness shows a reply's
// SystemMessage for the event: one whose answer it reads (not SessionEnd,
// nor a turn reported outside the hooks), where it shows any.
func (c Capabilities) ShowsSystemMessage(ev Kind) bool {
	return c.SystemMessage && ev != 0 && ev != SessionEnd && ev != TurnComplete
}

// sessionChat is the chat of the event's session as it is now, read
// without the lock (nil for none).
func sessionChat(h *Hook, ev Event) *state.Chat {
	var c *state.Chat
	in := state.SessionIn{Harness: ev.Harness, Session: ev.Session, Folder: ev.WorkFolder(h.Cwd)}
	_ = h.Home.View(func(v *state.View) (err error) { c, err = v.Sessions().Find(in); return err })
	return c
}

// messageReplyGoingOn says whether the session's chat is in a reply a
// message started at the turn's end (conch handed the message back to the
// harness), still running and not yet past its first step.
func messageReplyGoingOn(h *Hook, ev Event) bool {
	c := sessionChat(h, ev)
	return c != nil && c.Reply != nil && c.Reply.Alive() && !c.Reply.Person && c.Reply.Steps == 0
}
