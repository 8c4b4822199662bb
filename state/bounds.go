package state

import (
	"slices"
	"unicode/utf8"
)

// Bounds on what a chat's record may hold (issue 12, rule 13), so that no
// chat can bloat another's record, the shared index, or every step that
// rewrites them. Past a bound, what a command was given is refused (exit
// 2, the bound named); what conch carries itself (taint from one chat to
// another) is folded into a last entry, never dropped.
const (
	MaxFolder        = 4096     // bytes of a folder, as file systems bound a path
	MaxGoal          = 500      // characters of a goal
	MaxResult        = 4000     // characters of a task's result, as a message's words
	MaxTaintSources  = 16       // outside sources (and, apart, person sources) one chat keeps
	MaxTaintSource   = 512      // bytes of one source: a long URL, cut
	MaxAppName       = 32       // characters of NAME in app:NAME
	MaxFiles         = 200      // changed files one reply keeps
	MaxFile          = 4096     // bytes of one file name
	MaxTool          = 100      // bytes of a step's tool name
	MaxKey           = 200      // bytes of a --key
	MaxCommand       = 4096     // bytes of a wake_cmd or stop_cmd
	MaxReplyText     = 16 << 10 // bytes of a reply's last words kept: waiters read the last 800 characters
	moreTaintSources = "and more sources"
)

func maxBytes(what, s string, n int) error {
	if len(s) > n {
		return usagef("%s is %d bytes; at most %d", what, len(s), n)
	}
	return nil
}

func maxChars(what, s string, n int) error {
	if c := utf8.RuneCountInString(s); c > n {
		return usagef("%s is %d characters; at most %d", what, c, n)
	}
	return nil
}

// validAppName is NAME of app:NAME (rule 12): 1 to 32 of [A-Za-z0-9._-].
func validAppName(name string) bool {
	if name == "" || len(name) > MaxAppName {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// addSource adds a taint source to list, within the bounds: a source
// past MaxTaintSource bytes is cut, and once MaxTaintSources are kept the
// last place says there were more. Taint only lowers trust, so it is
// never refused and never lost: a chat that read something stays marked.
// It says whether list changed.
func addSource(list []string, src string) ([]string, bool) {
	src = cutBytes(src, MaxTaintSource)
	if src == "" || slices.Contains(list, src) || slices.Contains(list, moreTaintSources) {
		return list, false
	}
	if len(list) >= MaxTaintSources-1 {
		return append(list, moreTaintSources), true
	}
	return append(list, src), true
}

// tailOf is the end of s, at most n bytes, from a rune boundary.
func tailOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// cutBytes cuts s to at most n bytes, at a rune boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// ValidTaintSource checks a source given on the command line: `conch chat
// taint` refuses one past the bound, where conch's own taint (a hook's URL)
// is cut to it.
func ValidTaintSource(s string) error {
	if err := validText("taint", s); err != nil {
		return err
	}
	return maxBytes("a taint source", s, MaxTaintSource)
}

// scrubField takes secrets out of a field that another chat may read (a
// title, a goal, a result, a taint source, a file name: rule 15 of issue
// 12). Empty fields cost nothing; the rules are compiled on first use.
func (d MessagesView) scrubField(s string) string {
	tx := d.v
	if s == "" {
		return s
	}
	return tx.Messages().scrubber().Scrub(s)
}

func (d MessagesView) scrubFields(list []string) []string {
	tx := d.v
	if len(list) == 0 {
		return list
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = tx.Messages().scrubField(s)
	}
	return out
}

// boundedCommands checks a wake_cmd, a stop_cmd and a key.
func boundedCommands(wake, stop, key string) error {
	if err := maxBytes("wake_cmd", wake, MaxCommand); err != nil {
		return err
	}
	if err := maxBytes("stop_cmd", stop, MaxCommand); err != nil {
		return err
	}
	return maxBytes("key", key, MaxKey)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// boundedFile checks a file name a step names.
func boundedFile(f string) error {
	if err := validText("file", f); err != nil {
		return err
	}
	return maxBytes("a file name", f, MaxFile)
}
