package render

import (
	"fmt"
	"strings"

	"github.com/conch-sh/conch/state"
)

// Adopted is what conch adopt says: the file's name cleaned, as scan says
// it (a name can hold a newline and a line that reads as conch's).
func Adopted(ad *state.Adoption) string {
	return fmt.Sprintf("%s adopted %s (%s), read from byte %d on\n", ad.Chat, Clean(ad.File), ad.Harness, ad.Offset)
}

// Scanned is what conch scan says: a line a look, or that there is nothing
// adopted to look at.
func Scanned(results []state.ScanResult) string {
	if len(results) == 0 {
		return "no adopted sessions\n"
	}
	var b strings.Builder
	for _, r := range results {
		b.WriteString(ScanLine(r) + "\n")
	}
	return b.String()
}

// ScanLine is one look of conch scan at an adopted session, in words.
func ScanLine(r state.ScanResult) string {
	head := r.Chat + ": " + Clean(r.File)
	switch {
	case r.Skipped:
		return head + ": another scan read it first"
	case r.Error != "":
		return head + ": cannot be read: " + Clean(r.Error)
	case r.Dropped && r.Missing:
		return fmt.Sprintf("%s: gone %d looks in a row: upstream_missing recorded, link dropped", head, r.Missed)
	case r.Dropped:
		return head + ": the chat is gone: link dropped"
	case r.Missing:
		return fmt.Sprintf("%s: missing (%d of %d looks)", head, r.Missed, state.MissedLooks)
	}
	var parts []string
	if r.Restarted {
		parts = append(parts, "shorter than the last look (replaced): read again from its start")
	}
	switch {
	case r.Messages > 0:
		parts = append(parts, fmt.Sprintf("%s typed by the person directly", plural(r.Messages, "message", "messages")))
	case r.Read > 0:
		parts = append(parts, "nothing typed by the person")
	default:
		parts = append(parts, "nothing new")
	}
	if r.Echoes > 0 {
		parts = append(parts, fmt.Sprintf("%s known already (conch's own words, or prompts its hooks reported)", plural(r.Echoes, "row", "rows")))
	}
	if r.Read > 0 {
		parts = append(parts, fmt.Sprintf("%d bytes read", r.Read))
	}
	if r.Blocked {
		parts = append(parts, fmt.Sprintf("a row longer than %d bytes at byte %d blocks the scan (no byte is skipped)", state.ScanCap, r.Offset))
	}
	return head + ": " + strings.Join(parts, "; ")
}
