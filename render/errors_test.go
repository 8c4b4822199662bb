package render

import (
	"errors"
	"fmt"
	"testing"

	"github.com/conch-sh/conch/state"
)

// TestErrorText: the refusals state leaves to render are said in render's
// words, wrapped or not; they are still refusals (exit 3); anything else
// says its own words.
func TestErrorText(t *testing.T) {
	held := &state.NotHeldError{ID: "m_1", State: state.MsgNotDelivered, Why: "the chat was deleted"}
	waiting := &state.NotWaitingError{Request: &state.Request{ID: "r_1", State: state.ReqStopped}}
	for err, want := range map[error]string{
		held:                         "message m_1 is not held: not delivered (the chat was deleted)",
		fmt.Errorf("pass: %w", held): "message m_1 is not held: not delivered (the chat was deleted)",
		waiting:                      "request r_1 is not waiting: it stopped the reply",
		errors.New("no chat c_9"):    "no chat c_9",
	} {
		if got := ErrorText(err); got != want {
			t.Errorf("ErrorText(%v) = %q, want %q", err, got, want)
		}
	}
	for _, err := range []error{held, waiting} {
		var e *state.Error
		if !errors.Is(err, state.ErrRefused) || !errors.As(err, &e) {
			t.Errorf("%v is not a refusal", err)
		}
	}
}
