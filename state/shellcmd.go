package state

import (
	"path/filepath"
	"strings"

	"github.com/google/shlex"
)

// maxShellLine is how much of a command line the classifier reads.
const maxShellLine = 64 << 10

// CheckoutMove is a git command that moves a checkout: it changes the
// files or the branch under whoever else works there.
type CheckoutMove struct {
	Words string // what it is, in a few words: "git stash", "git reset --hard"
	Dir   string // the -C folder it names, "" for the command's own
}

// MovesCheckout finds, in a shell command line, a git command that moves
// the checkout it runs in: git checkout or switch of a branch, stash
// (but list and show), reset --hard, rebase, clean -f. It reads the line
// as the shell would split it (quotes, escapes, ; && || | & and command
// substitutions), and names the first it finds.
func MovesCheckout(line string) (CheckoutMove, bool) {
	if !strings.Contains(line, "git") {
		return CheckoutMove{}, false // the common case, at every shell step
	}
	if len(line) > maxShellLine {
		line = line[:maxShellLine] // a command past this is a script: its start is read
	}
	for _, part := range shellParts(line) {
		words, err := shlex.Split(part)
		if err != nil {
			words = strings.Fields(part)
		}
		if m, ok := gitMove(plainCommand(words)); ok {
			return m, true
		}
	}
	return CheckoutMove{}, false
}

// shellParts cuts a command line into its simple commands: at ; & | and
// new lines, at parentheses, braces and backticks, and into $( … ), none
// of them quoted. Quotes and escapes stay in each part, for shlex.
func shellParts(line string) []string {
	var (
		parts []string
		cur   strings.Builder
		quote rune // ' or " while inside one
	)
	cut := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			parts = append(parts, s)
		}
		cur.Reset()
	}
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote == '\'':
			cur.WriteRune(r)
			if r == '\'' {
				quote = 0
			}
		case r == '\\' && i+1 < len(rs):
			cur.WriteRune(r)
			cur.WriteRune(rs[i+1])
			i++
		case quote == '"' && r == '"':
			cur.WriteRune(r)
			quote = 0
		case r == '`' || (r == '$' && i+1 < len(rs) && rs[i+1] == '('):
			// A command inside: what is before it and what is in it are
			// each a command of their own (inside double quotes too).
			if r == '$' {
				i++
			}
			if quote == '"' {
				// The quote is left open in the part before: close it
				// there and open it again in the part after.
				cur.WriteRune('"')
				cut()
				cur.WriteRune('"')
				continue
			}
			cut()
		case quote == '"':
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			cur.WriteRune(r)
			quote = r
		case strings.ContainsRune(";&|\n(){}", r):
			cut()
		default:
			cur.WriteRune(r)
		}
	}
	cut()
	return parts
}

// plainCommand is the command that words run: past VAR=value assignments
// and the wrappers that run the rest (sudo, env, command, exec, nohup,
// time, nice).
func plainCommand(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "="):
			words = words[1:]
		case w == "sudo" || w == "env" || w == "command" || w == "exec" || w == "nohup" || w == "time" || w == "nice" || w == "then" || w == "do" || w == "else" || w == "!":
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				words = words[1:] // the wrapper's own options
			}
		default:
			return words
		}
	}
	return nil
}

// gitMove says whether a simple command is git moving a checkout.
func gitMove(words []string) (CheckoutMove, bool) {
	if len(words) == 0 || filepath.Base(words[0]) != "git" {
		return CheckoutMove{}, false
	}
	var m CheckoutMove
	i := 1
	for ; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-C":
			if i+1 < len(words) {
				m.Dir = words[i+1]
			}
			i++
		case w == "-c" || w == "--git-dir" || w == "--work-tree" || w == "--namespace":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			goto sub
		}
	}
	return m, false
sub:
	sub, args := words[i], words[i+1:]
	has := func(flags ...string) bool {
		for _, a := range args {
			for _, f := range flags {
				if a == f {
					return true
				}
			}
		}
		return false
	}
	if has("-h", "--help") {
		return m, false
	}
	switch sub {
	case "checkout":
		// A branch, not files: no "--", no "." and something named.
		if has("--", ".") || len(args) == 0 {
			return m, false
		}
		m.Words = "git checkout"
	case "switch":
		if len(args) == 0 {
			return m, false
		}
		m.Words = "git switch"
	case "stash":
		if len(args) > 0 && (args[0] == "list" || args[0] == "show" || args[0] == "create") {
			return m, false
		}
		m.Words = "git stash"
	case "reset":
		if !has("--hard") {
			return m, false
		}
		m.Words = "git reset --hard"
	case "rebase":
		m.Words = "git rebase"
	case "clean":
		force, dry := false, false
		for _, a := range args {
			switch {
			case a == "--force":
				force = true
			case a == "--dry-run":
				dry = true
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
				force = force || strings.ContainsRune(a, 'f')
				dry = dry || strings.ContainsRune(a, 'n')
			}
		}
		if !force || dry {
			return m, false
		}
		m.Words = "git clean -f"
	default:
		return m, false
	}
	return m, true
}
