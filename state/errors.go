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

// Error is an error of one kind, with the message a person reads.
type Error struct {
	Kind error
	Msg  string
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

func usagef(format string, args ...any) error {
	return &Error{ErrUsage, fmt.Sprintf(format, args...)}
}

func refusedf(format string, args ...any) error {
	return &Error{ErrRefused, fmt.Sprintf(format, args...)}
}

// noChat is the one answer for a chat that does not exist and for one that
// is not yours, so the two cannot be told apart.
func noChat(id string) error {
	return &Error{ErrNoChat, "no chat " + id}
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
