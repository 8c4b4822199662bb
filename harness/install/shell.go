package install

import (
	"path/filepath"
	"strings"

	"github.com/google/shlex"
)

// Command is the command line of conch's handler for a harness: the
// program as one shell word (issue 12, rule 19: a --conch of "x;rm -rf ~"
// or "$(…)" or "PATH=…" runs that program by that name, nothing else),
// then "hook NAME".
func Command(conch, harness string) string {
	return Quote(conch) + " hook " + harness
}

// Quote writes s as one POSIX shell word: as it is when every byte of it
// is one a shell takes literally, else in single quotes. (shlex splits
// words but writes none; TestQuote reads each back through /bin/sh and
// FuzzQuote through shlex.)
func Quote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("_./+,:@%~-", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// IsConchCommand says whether a handler's command line is conch's for the
// harness: conch's own entries are known by their words (conch hook
// NAME), whatever path names the program. A line the shell could not
// split is not conch's.
func IsConchCommand(command, harness string) bool {
	return IsConchWords(words(command), harness)
}

// IsConchWords is IsConchCommand for a command given as its words
// (Codex's notify list).
func IsConchWords(f []string, harness string) bool {
	if len(f) != 3 || f[1] != "hook" || f[2] != harness {
		return false
	}
	base := filepath.Base(f[0])
	return base == "conch" || base == "conch.exe"
}

// words splits a command line as a POSIX shell splits words (quotes and
// backslashes), nil when it cannot.
func words(s string) []string {
	f, err := shlex.Split(s)
	if err != nil {
		return nil
	}
	return f
}
