package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/conch-sh/conch/state"
)

// Withheld is what a reader sees in place of the words (a goal, a task's
// result) of chat or task id that would carry into it something read from
// outside that it has not read: conch wait gives them, with that taint.
func Withheld(id string, task bool) string {
	if task {
		return "withheld: task " + id + " read from outside; conch wait task " + id + " gives its words and that taint"
	}
	return "withheld: chat " + id + " read from outside"
}

// heldOr is words, or Withheld in their place when state withheld them.
func heldOr(words string, held bool, id string, task bool) string {
	if held {
		return Withheld(id, task)
	}
	return words
}

// ChatShow is `conch chat show` in words.
func ChatShow(c *state.ChatShown, now time.Time, home string) string {
	var b strings.Builder
	kind := "chat"
	if c.IsTask() {
		kind = "task"
	}
	fmt.Fprintf(&b, "%s %s “%s”\n", kind, c.ID, Clean(c.Title))
	// Every value is cleaned: a goal, a result, a folder, a taint source
	// or a file name is words a model (or a page it read) chose.
	row := func(k, v string) {
		if v = Clean(v); v != "" {
			fmt.Fprintf(&b, "  %-14s %s\n", k+":", v)
		}
	}
	cleanAll := func(list []string) string {
		out := make([]string, 0, len(list))
		for _, s := range list {
			if s = Clean(s); s != "" {
				out = append(out, s)
			}
		}
		return strings.Join(out, ", ")
	}
	row("state", c.State)
	if c.Task != nil {
		row("task state", c.Task.State)
		row("result", heldOr(c.Task.Result, c.ResultWithheld, c.ID, true))
	}
	row("origin", c.Origin)
	row("folder", Folder(c.Folder, home))
	row("computer", c.Computer)
	row("mode", c.Mode)
	row("inbound", c.Inbound)
	row("goal", heldOr(c.Goal, c.GoalWithheld, c.ID, c.IsTask()))
	row("parent", c.Parent)
	if len(c.Taint.Outside) > 0 {
		row("read outside", cleanAll(c.Taint.Outside))
	}
	if len(c.Taint.Person) > 0 {
		row("words of", cleanAll(c.Taint.Person))
	}
	if c.Archived {
		row("archived", "yes")
	}
	if c.Browser {
		row("browser", "a page open")
	}
	if c.Recovery {
		row("recovery", "will carry on by itself")
	}
	if c.MCPOnly {
		row("hooks", "not reporting: known only through its MCP tools")
	}
	if r := c.Reply; r != nil {
		row("reply", fmt.Sprintf("%s began %s, %s for %s", r.ID, Ago(now, r.Started), FamilyWords(r.Family), Span(now.Sub(r.StepSince))))
		if len(r.Files) > 0 {
			row("changed", cleanAll(r.Files))
		}
	}
	if r := c.LastReply; r != nil {
		row("last reply", fmt.Sprintf("%s ended %s: %s", r.ID, Ago(now, r.Ended), r.Outcome))
	}
	row("active", Ago(now, c.Active))
	row("state version", fmt.Sprint(c.StateVersion))
	return b.String()
}

// Deleted is what conch chat delete says.
func Deleted(id string) string { return "deleted " + id + "\n" }

// ReplyEnded is what conch reply end says: the reply and its outcome.
func ReplyEnded(r *state.Reply) string { return r.ID + " " + r.Outcome + "\n" }

// NoReplyEnded is what conch reply end says with no reply running.
const NoReplyEnded = "no reply ended\n"

// Version is what conch version says.
func Version(v string) string { return "conch " + v + "\n" }
