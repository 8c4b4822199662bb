package render

import (
	"fmt"
	"strings"

	"github.com/conch-sh/conch/state"
)

// StoppedNow is the error line of a step or notes whose reply was just
// stopped (exit 5): who stopped it and why, cleaned.
func StoppedNow(n state.StopNotice) string {
	return fmt.Sprintf("%s stopped this reply: end it now (%s)", Named(n.ByTitle, n.By), Clean(n.Reason))
}

// StopLine is what a chat hears when another chat stopped its reply.
func StopLine(n state.StopNotice) string {
	return fmt.Sprintf("%s stopped your last reply: %s", Named(n.ByTitle, n.By), Clean(n.Reason))
}

// StopWho is who stopped a reply, without why: where a harness shows the
// person the end of a turn beside the full notice (StopLine), said once.
func StopWho(n state.StopNotice) string {
	return fmt.Sprintf("%s stopped this reply (conch)", Named(n.ByTitle, n.By))
}

// ReaderLine is one line about another chat in the same place (SPEC §4).
func ReaderLine(l state.ReaderLine) string {
	who := Named(l.Title, l.Chat)
	switch l.Kind {
	case "changing":
		changing := ""
		if l.File != "" {
			changing = ", changing " + Clean(l.File)
		}
		return "another of the person's chats is changing files in this folder right now: " + who + changing +
			". Keep to your own files, read a file again before changing it, and never undo its work."
	case "running":
		return "another of the person's chats, " + who + ", is running commands in this folder. If yours would clash, wait for it or say so."
	case "claimed":
		return ClaimedLine(l)
	case "shared":
		return "this reply and " + who + " have both changed " + Clean(l.File) + ": read it again before changing it further."
	}
	return ""
}

// NoticeLine is the one notice that a watched chat changed (SPEC §7). Its
// text stays byte-for-byte the same while the notice is pending.
func NoticeLine(n state.Notice) string {
	return fmt.Sprintf("Chat %q changed (other actor). Reconcile before acting: conch status %s --since %d", n.Target, n.Target, n.Since)
}

// Notes is `conch notes` in words, within max characters (0: no limit).
// Whole messages that do not fit are left out, to stay due for the next
// call; shown is what was said, for marking.
func Notes(n *state.Notes, max int) (text string, shown *state.Notes) {
	shown = &state.Notes{Stop: n.Stop, StopNow: n.StopNow, Reader: []state.ReaderLine{}, Messages: []state.DueMessage{}, Waits: []state.EndedWait{}, Notices: []state.Notice{}}
	var blocks []string
	size := 0
	fits := func(s string) bool {
		extra := len(s)
		if len(blocks) > 0 {
			extra++
		}
		if max > 0 && size+extra > max {
			return false
		}
		blocks = append(blocks, s)
		size += extra
		return true
	}
	if n.Stop != nil {
		fits(StopLine(*n.Stop))
	}
	if n.StopNow {
		return strings.Join(blocks, "\n") + "\n", shown
	}
	for _, l := range n.Reader {
		if fits(ReaderLine(l)) {
			shown.Reader = append(shown.Reader, l)
		}
	}
	for _, m := range n.Messages {
		if fits(MessageBlock(m)) {
			shown.Messages = append(shown.Messages, m)
		}
	}
	for _, w := range n.Waits {
		if fits(WaitBlock(w)) {
			shown.Waits = append(shown.Waits, w)
		}
	}
	for _, x := range n.Notices {
		if fits(NoticeLine(x)) {
			shown.Notices = append(shown.Notices, x)
		}
	}
	if len(blocks) == 0 {
		return "", shown
	}
	return strings.Join(blocks, "\n") + "\n", shown
}
