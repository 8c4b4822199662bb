package render

import (
	"fmt"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/state"
)

// Notice is the sentence [notify] tells the person, its command's last
// argument: who and what kind, with titles cleaned, never a message's
// words or a stop's reason.
func Notice(n state.PersonNotice) string {
	switch n.Kind {
	case state.NoticeNeedsYou:
		return Named(n.Title, n.Chat) + " needs you"
	case state.NoticeRequest:
		return fmt.Sprintf("%s asks to stop %s: conch confirm %s or conch deny %s", Named(n.Title, n.Chat), Named(n.OtherTitle, n.Other), n.ID, n.ID)
	case state.NoticeOpen:
		return fmt.Sprintf("a message from %s waits for you in %s: its %s session is open and idle; go back to it to let the message on", Named(n.Title, n.Chat), Named(n.OtherTitle, n.Other), harness.Title(n.Via))
	case state.NoticeHeld:
		return fmt.Sprintf("a message from %s to %s is held: conch message pass %s or conch message dismiss %s", Named(n.Title, n.Chat), Named(n.OtherTitle, n.Other), n.ID, n.ID)
	}
	return "a test notice from conch: the [notify] command works"
}

// NotifySent is conch notify test's answer.
func NotifySent(argv []string) string {
	return fmt.Sprintf("sent a test notice through %s\n", Clean(argv[0]))
}
