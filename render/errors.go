package render

import (
	"errors"
	"fmt"

	"github.com/conch-sh/conch/state"
)

// ErrorText is the line a failed command says: the error's own words, but
// render's where state leaves them to it (a stop notice, with the
// stopper's title and reason cleaned; a press on a message that is not
// held or a request that no longer waits, with its state in words).
func ErrorText(err error) string {
	var stopped *state.StoppedError
	if errors.As(err, &stopped) {
		return StoppedNow(stopped.Notice)
	}
	var notHeld *state.NotHeldError
	if errors.As(err, &notHeld) {
		return fmt.Sprintf("message %s is not held: %s", notHeld.ID, StateWords(notHeld.State, notHeld.Why))
	}
	var notWaiting *state.NotWaitingError
	if errors.As(err, &notWaiting) {
		return fmt.Sprintf("request %s is not waiting: it %s", notWaiting.Request.ID, RequestWords(notWaiting.Request))
	}
	return err.Error()
}

// CommittedBut is the warning of a command whose change had committed
// when something went wrong after it: the change stands.
func CommittedBut(err error) string { return "committed, but then: " + err.Error() }
