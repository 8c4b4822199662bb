package render

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/conch-sh/conch/state"
)

// FamilyWords are conch's own words for what a step of the family does
// (SPEC §1); "" for a family conch does not know. (A switch, not a map: a
// map would be built at every start of every command.)
func FamilyWords(family string) string {
	switch family {
	case "edit":
		return "editing files"
	case "run":
		return "running a command"
	case "read":
		return "reading files"
	case "search":
		return "searching"
	case "browse":
		return "browsing the web"
	case "talk":
		return "talking"
	case "wait":
		return "waiting"
	case "other":
		return "working"
	}
	return ""
}

// Named is a chat as conch's own lines name it: “Title” (chat c_1). The
// title is cleaned, so nothing in it can close the line.
func Named(title, id string) string {
	return fmt.Sprintf("“%s” (chat %s)", Clean(title), id)
}

// Ago says how long before now t was, in a person's words.
func Ago(now, t time.Time) string {
	return Span(now.Sub(t)) + " ago"
}

// Span is a duration in a person's words: 40s, 5m, 3h, 2d.
func Span(d time.Duration) string {
	switch {
	case d < time.Minute:
		if d < 0 {
			d = 0
		}
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}

// Folder is a folder as a person reads it: ~ for their home.
func Folder(dir, home string) string {
	if home != "" && home != "/" {
		if dir == home {
			return "~"
		}
		if strings.HasPrefix(dir, home+string(filepath.Separator)) {
			return "~" + dir[len(home):]
		}
	}
	return dir
}

// From is where a listed chat came from, in words.
func From(from string) string {
	switch {
	case from == "task":
		return "a task from this chat"
	case from == "routine":
		return "a routine"
	case strings.HasPrefix(from, "app:"):
		name := from[4:]
		r, n := utf8.DecodeRuneInString(name)
		return string(unicode.ToUpper(r)) + name[n:]
	}
	return ""
}

// Changing is what a busy chat in the same folder is changing: the base
// name of the file it changed last, and +N for the others.
func Changing(files []string, last string) string {
	if last == "" {
		return ""
	}
	s := "Changing " + Clean(filepath.Base(last))
	if n := len(files) - 1; n > 0 {
		s += fmt.Sprintf(" +%d", n)
	}
	return s
}

// ListHeader is the first line of `conch chats list`.
func ListHeader(l *state.ChatList) string {
	return fmt.Sprintf("Checked on your other chats · %d working · %d needs you", l.Working, l.NeedsYou)
}

// ChatList is `conch chats list` in words. For a chat, a busy chat in its
// folder says the file it is changing; for the person, who works in no
// folder, every busy chat does.
func ChatList(l *state.ChatList, now time.Time, home string, person bool) string {
	var b strings.Builder
	b.WriteString(ListHeader(l))
	b.WriteString("\n")
	for _, c := range l.Chats {
		fmt.Fprintf(&b, "- %s\n", ChatRow(c, now, home, person))
	}
	return b.String()
}

// ChatRow is one chat of the list (and of conch top): its name, then what
// it is doing and the rest.
func ChatRow(c state.OtherChat, now time.Time, home string, person bool) string {
	return Named(c.Title, c.ID) + ": " + strings.Join(chatParts(c, now, home, person), " · ")
}

// chatParts are what a chat's row says after its name, its state first.
func chatParts(c state.OtherChat, now time.Time, home string, person bool) []string {
	parts := []string{c.State}
	if c.State == state.StatusWorking && c.Doing != "" {
		// While working, what it does says it: "editing files for 2m".
		parts[0] = FamilyWords(c.Doing)
		if c.DoingSince != nil {
			parts[0] += " for " + Span(now.Sub(*c.DoingSince))
		}
	}
	changing := c.State == state.StatusWorking && (c.SameFolder || person) && c.LastFile != ""
	if changing {
		parts = append(parts, Changing(c.Files, c.LastFile))
	}
	switch {
	case c.Computer != "":
		parts = append(parts, "on "+Clean(c.Computer))
	case c.SameFolder:
		parts = append(parts, "same folder")
	default:
		parts = append(parts, Clean(Folder(c.Folder, home)))
	}
	if !changing {
		if n := len(c.Files); n > 0 {
			parts = append(parts, plural(n, "file", "files")+" changed")
		}
	}
	if c.ReplyStarted != nil {
		parts = append(parts, "reply began "+Ago(now, *c.ReplyStarted))
	}
	parts = append(parts, "active "+Ago(now, c.LastActive))
	for _, cl := range c.Claims {
		parts = append(parts, "claimed "+ClaimPath(cl.Path, c.Folder, home)+" until "+Clock(cl.Until))
	}
	if c.Browser {
		parts = append(parts, "browser page open")
	}
	if c.TasksGoing > 0 {
		parts = append(parts, plural(c.TasksGoing, "task", "tasks")+" going")
	}
	if f := Clean(From(c.From)); f != "" {
		parts = append(parts, f)
	}
	if c.Untrusted {
		parts = append(parts, "untrusted")
	}
	if c.MCPOnly {
		parts = append(parts, MCPOnlyCard)
	}
	return parts
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
