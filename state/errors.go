package state

import (
	"errors"
	"fmt"

	"github.com/conch-sh/conch/state/store"
)

// The kinds of failure a command can have. The cli maps each to its exit
// code in one place; the messages say what was wrong.
var (
	ErrUsage       = errors.New("usage")        // bad input: exit 2
	ErrRefused     = errors.New("refused")      // not allowed, a bound: exit 3
	ErrNoChat      = errors.New("no chat")      // no such chat, or not yours: exit 3
	ErrNeedsPerson = errors.New("needs person") // a request waits for the person: exit 4
	ErrStopped     = errors.New("stopped")      // this chat's reply was stopped: exit 5
	ErrTimeout     = errors.New("timeout")      // a wait timed out: exit 124
)

// Sentinels for what a program may want to tell apart within a kind, so
// that nothing has to read an error's words: errors.Is(err, ErrBound).
var (
	ErrBound    = errors.New("bound reached")   // a message past a bound of SPEC §5 (a *BoundError): exit 3
	ErrWaitLoop = errors.New("waits in a loop") // a wait that would go round in a loop: exit 3
)

// Error is an error of one kind, with the message a person reads; Why,
// when set, is a sentinel that says more than the kind (ErrWaitLoop).
type Error struct {
	Kind error
	Msg  string
	Why  error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

// Is matches Why, so that errors.Is finds it beside the kind.
func (e *Error) Is(target error) bool { return e.Why != nil && target == e.Why }

func usagef(format string, args ...any) error {
	return &Error{Kind: ErrUsage, Msg: fmt.Sprintf(format, args...)}
}

func refusedf(format string, args ...any) error {
	return &Error{Kind: ErrRefused, Msg: fmt.Sprintf(format, args...)}
}

// loopf refuses a wait that would go round in a loop (ErrWaitLoop).
func loopf(format string, args ...any) error {
	return &Error{Kind: ErrRefused, Msg: fmt.Sprintf(format, args...), Why: ErrWaitLoop}
}

// Bound names one of SPEC §5's bounds on chats talking to each other.
type Bound string

// The bounds (their numbers are in chains.go).
const (
	BoundChainMessages Bound = "messages in one chain"                          // ChainMessages
	BoundChainStarted  Bound = "replies started by messages in one chain"       // ChainStarted
	BoundChainPair     Bound = "messages from one chat to another in one chain" // ChainPair
	BoundWaiting       Bound = "messages waiting for one chat"                  // MaxWaiting
	BoundRepeat        Bound = "the same words to the same chat"                // once in RepeatWindow
	BoundWindowPair    Bound = "messages from one chat to another in a window"  // WindowPair in RepeatWindow
)

// BoundError is a message refused past a bound, the bound named: a
// refusal (exit 3) that errors.Is also knows as ErrBound.
type BoundError struct {
	Bound Bound
	Limit int // the number the bound allows (1 for the same words once in the window)
	msg   string
}

func (e *BoundError) Error() string { return e.msg }
func (e *BoundError) Unwrap() error { return ErrRefused }

// Is says that a BoundError is ErrBound.
func (e *BoundError) Is(target error) bool { return target == ErrBound }

func boundf(b Bound, limit int, format string, args ...any) error {
	return &BoundError{Bound: b, Limit: limit, msg: fmt.Sprintf(format, args...)}
}

// noChat is the one answer for a chat that does not exist and for one that
// is not yours, so the two cannot be told apart.
func noChat(id string) error {
	return &Error{Kind: ErrNoChat, Msg: "no chat " + id}
}

// CorruptError names a record that cannot be read.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("record %s cannot be read: %v (conch doctor --repair quarantines it)", e.Path, e.Err)
}
func (e *CorruptError) Unwrap() error { return e.Err }

// needsChat is the error of a command that acts as a chat, run with none
// acting.
func needsChat(verb string) error {
	return usagef("%s acts as a chat: give --chat ID or set CONCH_CHAT", verb)
}

// notPress is the refusal of what only the person's press may do.
func notPress(what string) error {
	return refusedf("%s is the person's press: run it at a terminal, with no chat acting", what)
}

// readError is the error of a failed read of the record at p: one too
// large is a record that cannot be read, for conch doctor to quarantine.
func readError(p string, err error) error {
	if errors.Is(err, store.ErrTooLarge) {
		return &CorruptError{Path: p, Err: store.ErrTooLarge}
	}
	return fmt.Errorf("read %s: %w", p, err)
}
