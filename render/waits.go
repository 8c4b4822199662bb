package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/conch-sh/conch/state"
)

// WaitTarget names what a wait is for in conch's own line: “Title” (chat
// c_1), or “Title” (task t_1).
func WaitTarget(kind, title, id string) string {
	if kind == state.WaitTask {
		return fmt.Sprintf("“%s” (task %s)", Clean(title), id)
	}
	return Named(title, id)
}

// waitHow is how the target ended, after its name (SPEC §6, word for word
// for a chat's reply).
func waitHow(kind, how string) string {
	if kind == state.WaitTask {
		switch how {
		case state.TaskDone:
			return "is done"
		case state.TaskUnverified:
			return "is done, unverified"
		case state.TaskFailed:
			return "failed"
		case state.TaskStopped:
			return "was stopped"
		case state.TaskInterrupted:
			return "was interrupted"
		}
		return "ended"
	}
	switch how {
	case state.EndedFinished:
		return "finished its reply"
	case state.EndedNeedsYou:
		return "needs you"
	case state.EndedIdle:
		return "is not working, and has not begun a reply"
	case state.EndedNotWoken:
		return "was woken, but its harness never began the reply: the message waits for its next reply"
	}
	return "was stopped before its reply finished"
}

// WaitHeadline is how a waited-for chat or task ended, as one sentence:
// “Fix the login” finished its reply.
func WaitHeadline(w state.EndedWait) string {
	switch w.How {
	case state.EndedGone:
		return fmt.Sprintf("there is no %s %s any more", w.Kind, w.Target)
	case state.EndedHidden:
		return fmt.Sprintf("%s %s is no longer one this chat may wait on", w.Kind, w.Target)
	}
	s := fmt.Sprintf("“%s” %s", Clean(w.Title), waitHow(w.Kind, w.How))
	if w.Kind == state.WaitTask {
		s = "the task " + s
	}
	return s
}

// WaitBlock is how a wait that ended is said to the waiting chat (SPEC §6):
// conch's line with how the other ended, then the end of its reply (or a
// task's result), fenced and quoted. A waiting chat that someone else's
// words came into hears the line alone.
func WaitBlock(w state.EndedWait) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Conch: the wait for %s %s ended: %s.", w.Kind, w.Target, WaitHeadline(w))
	if w.Kind == state.WaitChat && w.How == state.EndedNeedsYou {
		b.WriteString(" Tell the person so.")
	}
	if w.Text == "" || w.Bare || w.How == state.EndedGone || w.How == state.EndedHidden {
		b.WriteString("]")
		return b.String()
	}
	fence, lead, author := "chat-reply", "The end of its last reply follows", "that chat's assistant"
	switch {
	case w.Kind == state.WaitTask && (w.How == state.TaskDone || w.How == state.TaskUnverified):
		fence, lead, author = "task-result", "Its result follows", "the task"
	case w.Kind == state.WaitTask:
		fence, lead, author = "task-result", "Why it did not finish follows", "the task"
	case w.How == state.EndedFinished:
		lead = "The end of that reply follows"
	}
	fmt.Fprintf(&b, " %s; %s]", lead, weigh(author))
	fmt.Fprintf(&b, "\n<%s>\n%s\n</%s>", fence, Quote(w.Text), fence)
	return b.String()
}

// WaitRegistered is what a wait command says when the wait is registered
// and the command returns at once.
func WaitRegistered(v *state.WaitView) string {
	who := WaitTarget(v.Kind, v.Title, v.Target)
	if v.Waiter == state.PersonWaiter {
		return fmt.Sprintf("waiting for %s: conch wait list shows when it ended\n", who)
	}
	return fmt.Sprintf("waiting for %s. Let go of your reply now: how it ended is said at the start of your next reply.\n", who)
}

// WaitBlocking is said on standard error while a wait blocks.
func WaitBlocking(v *state.WaitView) string {
	return fmt.Sprintf("waiting for %s…\n", WaitTarget(v.Kind, v.Title, v.Target))
}

// WaitTimeout is the error of a blocking wait that gave up.
func WaitTimeout(v *state.WaitView, after time.Duration) string {
	return fmt.Sprintf("still waiting for %s after %s: the wait stays registered", WaitTarget(v.Kind, v.Title, v.Target), after)
}

// WaitCancelled is what conch wait cancel says.
func WaitCancelled(v *state.WaitView) string {
	if v.Title == "" {
		return fmt.Sprintf("cancelled the wait for %s %s\n", v.Kind, v.Target)
	}
	return fmt.Sprintf("cancelled the wait for %s\n", WaitTarget(v.Kind, v.Title, v.Target))
}

// WaitList is conch wait list in words: one line a wait.
func WaitList(vs []*state.WaitView, now time.Time) string {
	if len(vs) == 0 {
		return "no waits\n"
	}
	var b strings.Builder
	for _, v := range vs {
		switch {
		case v.Ending != nil && (v.Ending.How == state.EndedGone || v.Ending.How == state.EndedHidden):
			fmt.Fprintf(&b, "%s  %s  ended: %s\n", v.Target, v.Kind, WaitHeadline(*v.Ending))
		case v.Ending != nil:
			fmt.Fprintf(&b, "%s  %s  “%s”  ended: %s\n", v.Target, v.Kind, Clean(v.Title), waitHow(v.Kind, v.Ending.How))
		default:
			blocking := ""
			if v.Blocking {
				blocking = ", blocking"
			}
			fmt.Fprintf(&b, "%s  %s  “%s”  waiting since %s%s\n", v.Target, v.Kind, Clean(v.Title), Ago(now, v.Since), blocking)
		}
	}
	return b.String()
}
