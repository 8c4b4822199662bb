package state

import (
	"path/filepath"
	"strings"

	"github.com/google/shlex"
)

// RunsConchUnnamed says whether a shell command line runs conch with no
// chat named for it: some simple command of the line, wherever it is (the
// first, after ; && || | or a new line, in a subshell or a command
// substitution, through env, command, nohup, time, timeout, nice, xargs,
// or a string sh -c or eval reads again), is conch by any path, and names
// no chat: no --chat among its words, no CONCH_CHAT=… before it, and no
// export of CONCH_CHAT earlier on the line. A harness whose shell names
// no session (Gemini CLI) has such a line run with CONCH_CHAT set to the
// session's chat, so that it acts as the session, as a line that starts
// with conch does. The words are read as the shell splits them (quotes,
// escapes): a word that only mentions conch (grep conch, echo 'conch x')
// runs nothing of conch's.
func RunsConchUnnamed(line string) bool {
	if !saysWord(line, "conch") {
		return false // the common case, at every shell step
	}
	if len(line) > maxShellLine {
		line = line[:maxShellLine]
	}
	r := &conchReader{budget: 4 * maxShellLine}
	return r.line(line, 0)
}

// saysWord says whether a line may say word once the shell has taken its
// quotes and backslashes out.
func saysWord(line, word string) bool {
	if strings.Contains(line, word) {
		return true
	}
	if !strings.ContainsAny(line, `'"\`) {
		return false
	}
	bare := strings.Map(func(r rune) rune {
		if r == '\'' || r == '"' || r == '\\' {
			return -1
		}
		return r
	}, line)
	return strings.Contains(bare, word)
}

// conchReader reads a line's simple commands in order, keeping whether
// CONCH_CHAT was exported before them. budget bounds the bytes read,
// strings read again counted.
type conchReader struct {
	budget   int
	exported bool
}

// line reads one command line; depth is how many strings deep it is.
func (r *conchReader) line(line string, depth int) bool {
	if r.budget -= len(line); depth > maxShellDepth || r.budget < 0 {
		return false // built to be read again and again: not conch's to name
	}
	for _, part := range shellParts(line) {
		if strings.HasPrefix(part, opMark) {
			continue
		}
		words, err := shlex.Split(part)
		if err != nil {
			words = strings.Fields(part)
		}
		if r.words(words, depth) {
			return true
		}
	}
	return false
}

// words judges one simple command's words.
func (r *conchReader) words(words []string, depth int) bool {
	named := false
	for len(words) > 0 && isAssignment(words[0]) {
		named = named || strings.HasPrefix(words[0], "CONCH_CHAT=")
		words = words[1:]
	}
	cmd := plainWords(words)
	if len(cmd) == 0 {
		return false
	}
	switch name := filepath.Base(cmd[0]); name {
	case "conch", "conch.exe":
		return !named && !r.exported && !namesChat(cmd[1:])
	case "export", "declare", "typeset":
		for _, w := range cmd[1:] {
			if w == "CONCH_CHAT" || strings.HasPrefix(w, "CONCH_CHAT=") {
				r.exported = true
			}
		}
		return false
	case "unset":
		for _, w := range cmd[1:] {
			if w == "CONCH_CHAT" {
				r.exported = false
			}
		}
		return false
	case "eval":
		return r.line(strings.Join(cmd[1:], " "), depth+1)
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash":
		if s, ok := shellString(cmd[1:]); ok {
			return r.line(s, depth+1)
		}
		return false
	}
	rest, named, ok := unwrap(cmd)
	if !ok || len(rest) == 0 || depth >= maxShellDepth {
		return false
	}
	if named {
		rest = append([]string{"CONCH_CHAT=set"}, rest...)
	}
	return r.words(rest, depth+1)
}

// isAssignment says whether a word is a VAR=value the shell assigns
// before a command.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if c != '_' && (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// namesChat says whether conch's arguments name a chat (--chat ID or
// --chat=ID), before a -- that ends its flags.
func namesChat(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--chat" || strings.HasPrefix(a, "--chat=") {
			return true
		}
	}
	return false
}

// shellString is the string a shell's -c runs (any cluster of its
// one-letter options holding c), if it is given one.
func shellString(args []string) (string, bool) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" && args[0] != "--" {
		w := args[0]
		args = args[1:]
		switch {
		case w == "-o" || w == "+o" || w == "--rcfile" || w == "--init-file":
			if len(args) > 0 {
				args = args[1:]
			}
		case w == "--command" || (!strings.HasPrefix(w, "--") && strings.ContainsRune(w, 'c')):
			if len(args) > 0 {
				return args[0], true
			}
			return "", false
		}
	}
	return "", false
}

// unwrap is the command a wrapper runs (env, timeout, nice, …: the ones
// wrapperOpts knows), past the wrapper's own options and env's VAR=value
// words; named says env assigned CONCH_CHAT. ok is false for a command
// that is no wrapper.
func unwrap(cmd []string) (rest []string, named, ok bool) {
	name := filepath.Base(cmd[0])
	opts, ok := wrapperOpts(name)
	if !ok || name == "watch" {
		return nil, false, false
	}
	wantsWord := false
	for _, o := range opts {
		wantsWord = wantsWord || o == ""
	}
	rest = cmd[1:]
	for len(rest) > 0 {
		w := rest[0]
		if w == "--" {
			rest = rest[1:]
			break
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			if name == "env" && isAssignment(w) {
				named = named || strings.HasPrefix(w, "CONCH_CHAT=")
				rest = rest[1:]
				continue
			}
			if wantsWord {
				wantsWord, rest = false, rest[1:]
				continue
			}
			break
		}
		flag, _, hasVal := strings.Cut(w, "=")
		rest = rest[1:]
		if slicesHasFlag(opts, flag) && !hasVal && len(rest) > 0 {
			rest = rest[1:]
		}
	}
	if name == "command" && slicesHasFlag(cmd[1:], "-v", "-V") {
		return nil, false, true // it names the program, runs nothing
	}
	return rest, named, true
}
