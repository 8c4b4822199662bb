package render

// conch top's frames (issue 17): pure functions of what the home holds,
// the selection and the terminal's size, so that the view is tested without
// a terminal. Every word a model chose is cleaned (titles, files, reasons,
// a held message's first line) or quoted and stripped of control
// characters (a reply's text), so nothing in it can move the cursor, change
// colours or clear the screen.

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/rivo/uniseg"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/state"
)

// TopItem is one row of conch top that can be selected.
type TopItem struct {
	Kind string // TopHeld, TopRequest or TopChat
	ID   string // the message, request or chat
	Chat string // the chat it is about: the receiver, the chat to stop, the chat
}

// The kinds of TopItem.
const (
	TopHeld    = "held"
	TopRequest = "request"
	TopChat    = "chat"
)

// TopItems are the rows of the view in the order it shows them: what waits
// for the person (held messages, then requests), then every chat as conch
// chats list orders them.
func TopItems(v *state.PersonView) []TopItem {
	var items []TopItem
	for _, m := range v.Held {
		items = append(items, TopItem{Kind: TopHeld, ID: m.ID, Chat: m.To})
	}
	for _, r := range v.Requests {
		items = append(items, TopItem{Kind: TopRequest, ID: r.ID, Chat: r.Target})
	}
	for _, c := range v.List.Chats {
		items = append(items, TopItem{Kind: TopChat, ID: c.ID, Chat: c.ID})
	}
	return items
}

// TopFrame is one frame of conch top.
type TopFrame struct {
	View          *state.PersonView
	Detail        *state.ChatDetail // the selected chat's, when it is open
	Selected      int               // index into TopItems(View)
	Width, Height int
	Color         bool
	Now           time.Time
	Home          string
	Said          string // what the last key did, or why it did nothing
}

// Terminal styles, used only with colour.
const (
	sgrBold    = "1"
	sgrReverse = "7"
	sgrYellow  = "33"
	sgrDim     = "2"
)

// Lines is the frame, one string a terminal row, each at most Width
// columns wide and at most Height of them.
func (f TopFrame) Lines() []string {
	w, h := f.Width, f.Height
	if w < 20 || h < 4 {
		return []string{fit("conch top: the terminal is too small", max(w, 1))}
	}
	head := []string{f.style(fit(f.header(), w), sgrBold)}
	var body []string
	sel := -1
	if f.Detail != nil {
		body = f.detailLines(w)
	} else {
		body, sel = f.listLines(w)
	}
	var foot []string
	if f.Said != "" {
		foot = append(foot, fit(ScreenSafe(strings.TrimSpace(f.Said)), w))
	}
	foot = append(foot, f.style(fit(f.footer(w), w), sgrDim))
	room := h - len(head) - len(foot)
	if room < 0 {
		room = 0
	}
	start := 0
	if len(body) > room && sel >= room {
		start = min(sel-room+1, len(body)-room)
	}
	end := min(start+room, len(body))
	out := append(head, body[start:end]...)
	for len(out) < h-len(foot) {
		out = append(out, "")
	}
	return append(out, foot...)
}

// String is the frame as text, rows ending in newlines.
func (f TopFrame) String() string { return strings.Join(f.Lines(), "\n") + "\n" }

func (f TopFrame) header() string {
	l := f.View.List
	s := fmt.Sprintf("conch top · %d working · %d needs you", l.Working, l.NeedsYou)
	if n := len(f.View.Held) + len(f.View.Open) + len(f.View.Requests); n > 0 {
		s += fmt.Sprintf(" · %d wait for you", n)
	}
	return s
}

// footers are the keys, the longest first: the footer is the first that fits.
var footers = [...]string{
	"↑↓/jk select · enter detail · p pass · d dismiss · y confirm · n deny · i inbound · q quit",
	"↑↓/jk  enter detail  p pass  d dismiss  y confirm  n deny  i inbound  q quit",
	"↑↓ enter  p pass  d dismiss  y confirm  n deny  i inbound  q quit",
	"↑↓ enter p pass d dismiss y confirm n deny i inbound q",
	"↑↓ ⏎ p d y n i q",
}

func (f TopFrame) footer(w int) string {
	for _, s := range footers {
		if f.Detail != nil {
			s = strings.Replace(strings.Replace(s, "enter detail", "enter back", 1), "⏎ detail", "⏎ back", 1)
		}
		if uniseg.StringWidth(s) <= w {
			return s
		}
	}
	return footers[len(footers)-1]
}

// listLines are the waits for the person and the chats; sel is the row of
// the selected item.
func (f TopFrame) listLines(w int) (lines []string, sel int) {
	v := f.View
	sel = -1
	item := 0
	add := func(s string, selectable bool, sgr string) {
		mark := "  "
		if selectable && item == f.Selected {
			mark = "> "
			sel = len(lines)
			sgr = sgrReverse
		}
		lines = append(lines, f.style(fit(mark+s, w), sgr))
		if selectable {
			item++
		}
	}
	var needs []string
	for _, c := range v.List.Chats {
		if c.State == state.StatusNeedsYou {
			needs = append(needs, Named(c.Title, c.ID))
		}
	}
	if len(v.Held)+len(v.Open)+len(v.Requests)+len(needs) > 0 {
		lines = append(lines, f.style(fit("Waits for you", w), sgrBold))
		for _, m := range v.Held {
			add(TopHeldLine(m), true, "")
		}
		for _, r := range v.Requests {
			add(TopRequestLine(r), true, "")
		}
		for _, m := range v.Open {
			add(TopOpenLine(m), false, sgrYellow)
		}
		if len(needs) > 0 {
			add("needs you: "+strings.Join(needs, ", "), false, sgrYellow)
		}
	}
	lines = append(lines, f.style(fit("Your chats", w), sgrBold))
	if len(v.List.Chats) == 0 {
		add("no chats active in the last three days", false, "")
	}
	for _, c := range v.List.Chats {
		// What a key changes (the inbound) and where the chat is come
		// right after its state, where a narrow terminal still shows them.
		parts := chatParts(c, f.Now, f.Home, true)
		var more []string
		if in := v.Inbound[c.ID]; in != "" && in != state.InboundAccept {
			more = append(more, "inbound "+in)
		}
		if comp := v.Computers[c.ID]; comp != "" {
			more = append(more, "on "+Clean(comp))
		}
		parts = append(parts[:1], append(more, parts[1:]...)...)
		row := Named(c.Title, c.ID) + ": " + strings.Join(parts, " · ")
		sgr := ""
		if c.State == state.StatusNeedsYou {
			sgr = sgrYellow
		}
		add(row, true, sgr)
	}
	return lines, sel
}

// TopHeldLine is a held message as conch top shows it: who to whom and the
// first line of its words, cleaned.
func TopHeldLine(m state.HeldMessage) string {
	s := fmt.Sprintf("%s held: from %s to %s", m.ID, Named(m.FromTitle, m.From), Named(m.ToTitle, m.To))
	if first := Clean(m.FirstLine); first != "" {
		s += ": “" + first + "”"
	}
	return s
}

// TopOpenLine is a message that waits for the person to go back to its
// receiver's open session, as conch top shows it.
func TopOpenLine(m state.HeldMessage) string {
	return fmt.Sprintf("%s waits for you in %s: its %s session is open; go back to it to let the message on (from %s)", m.ID, Named(m.ToTitle, m.To), harness.Title(m.Via), Named(m.FromTitle, m.From))
}

// TopRequestLine is a request as conch top shows it: who asks to stop whom,
// and why.
func TopRequestLine(r *state.Request) string {
	return fmt.Sprintf("%s %s asks to stop %s: %s", r.ID, Named(r.ByTitle, r.By), Named(r.TargetTitle, r.Target), Clean(r.Reason))
}

// detailLines are the selected chat, whole: its state, reply, changed
// files, last reply's words (quoted), last events, cards and waits.
func (f TopFrame) detailLines(w int) []string {
	d := f.Detail
	c := d.Shown
	var lines []string
	add := func(s string) { lines = append(lines, fit(s, w)) }
	section := func(s string) { lines = append(lines, f.style(fit(s, w), sgrBold)) }
	inbound := c.Inbound
	if inbound == "" {
		inbound = state.InboundAccept
	}
	section(fmt.Sprintf("%s · %s · %s mode · inbound %s", Named(c.Title, c.ID), c.State, Clean(c.Mode), inbound))
	where := "folder " + Clean(Folder(c.Folder, f.Home))
	if c.Computer != "" {
		where += " · on " + Clean(c.Computer)
	}
	if from := Clean(From(c.Origin)); from != "" {
		where += " · " + from
	} else if c.Origin != "" {
		where += " · origin " + Clean(c.Origin)
	}
	if len(c.Taint.Outside) > 0 {
		where += " · untrusted"
	}
	add("  " + where)
	if c.Goal != "" {
		add("  goal: " + Clean(c.Goal))
	}
	if c.Task != nil {
		add(fmt.Sprintf("  task %s: %s", Clean(c.Task.State), Clean(c.Task.Result)))
	}
	if r := c.Reply; r != nil {
		add(fmt.Sprintf("  reply %s began %s, %s for %s", r.ID, Ago(f.Now, r.Started), FamilyWords(r.Family), Span(f.Now.Sub(r.StepSince))))
		if len(r.Files) > 0 {
			files := make([]string, len(r.Files))
			for i, p := range r.Files {
				files[i] = Clean(relTo(p, r.Folder))
			}
			add("  changed: " + strings.Join(files, ", "))
		}
	}
	if r := c.LastReply; r != nil {
		add(fmt.Sprintf("  last reply %s ended %s: %s", r.ID, Ago(f.Now, r.Ended), Clean(r.Outcome)))
		for _, l := range quotedLines(r.Text, 6) {
			add("  │ " + l)
		}
	}
	if len(d.Events) > 0 {
		section("Last events")
		for _, ev := range d.Events {
			add(fmt.Sprintf("  %d %s · %s · %s", ev.Sequence, Clean(ev.Kind), ActorWords(ev.Actor, ev.ActorChat), Ago(f.Now, ev.At)) + summaryTail(ev.Summary))
		}
	}
	if len(d.Cards) > 0 {
		section("Messages")
		for _, card := range d.Cards {
			add("  " + CardLine(card))
		}
	}
	if len(d.Waits) > 0 {
		section("Waits")
		for _, wv := range d.Waits {
			add(fmt.Sprintf("  waits for %s · %s since %s", WaitTarget(wv.Kind, wv.Title, wv.Target), Clean(wv.State), Ago(f.Now, wv.Since)))
		}
	}
	return lines
}

func summaryTail(s string) string {
	if s = Clean(s); s != "" {
		return ": " + s
	}
	return ""
}

// relTo is path p relative to folder dir when inside it.
func relTo(p, dir string) string {
	if dir != "" {
		if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}

// quotedLines are a reply's words for the screen: quoted (§8), every
// control character a space, at most n lines (the last says how many more).
func quotedLines(text string, n int) []string {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	all := strings.Split(text, "\n")
	var out []string
	for i, l := range all {
		if i == n-1 && len(all) > n {
			out = append(out, fmt.Sprintf("… %d more lines", len(all)-i))
			break
		}
		out = append(out, ScreenSafe(l))
	}
	return out
}

// ScreenSafe is a line of a model's words for a terminal: quoted (§8), and
// every control character (escape included), line separator and bidi
// control a space, so it can neither speak as conch nor drive the terminal.
func ScreenSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r != ' ' && isBreak(r) {
			return ' '
		}
		return r
	}, Quote(s))
}

// fit cuts s to at most w terminal columns, ending in … when cut.
func fit(s string, w int) string {
	if uniseg.StringWidth(s) <= w {
		return s
	}
	var b strings.Builder
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		cw := g.Width()
		if used+cw > w-1 {
			break
		}
		b.WriteString(g.Str())
		used += cw
	}
	return b.String() + "…"
}

func (f TopFrame) style(s, sgr string) string {
	if !f.Color || sgr == "" || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}

// InboundSet is what conch top says when a key changed a chat's inbound.
func InboundSet(c *state.Chat) string {
	return fmt.Sprintf("%s: inbound %s", Named(c.Title, c.ID), c.Inbound)
}
