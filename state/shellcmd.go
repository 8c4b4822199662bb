package state

import (
	"path/filepath"
	"strings"

	"github.com/google/shlex"

	"github.com/conch-sh/conch/state/place"
)

// maxShellLine is how much of a command line the classifier reads.
const maxShellLine = 64 << 10

// maxShellDepth is how deep the classifier reads strings run again (sh -c,
// eval, a git alias that is a shell command): a line nested deeper is
// taken to move the checkout.
const maxShellDepth = 8

// checkoutMove is a git command that moves a checkout: it discards or
// rewrites the files under whoever else works in that work tree.
type checkoutMove struct {
	Words string // what it is, in a few words: "git stash", "git reset --hard"
	// Dir is where it runs, absolute: a cd or pushd before it on the line,
	// git -C or --work-tree, env -C; the line's own folder when none.
	Dir string
}

// movesCheckout finds, in a shell command line run in folder cwd, a git
// command that moves the checkout it runs in: git checkout of a branch or
// of the whole tree (. or a folder), restore of the same, switch, stash
// (but list and show), reset --hard, --keep or --merge, rebase, pull,
// merge, clean -f. It reads the line as the shell would split it (quotes,
// escapes, ; && || | & and command substitutions), through the wrappers
// that run the rest (sh -c and bash -lc strings read again, eval, env,
// timeout, nice, sudo, xargs, find -exec, git -c alias.X=...), following
// cd, pushd and popd for the rest of the line; it names the first it
// finds. What it
// cannot read (a script file, a variable, an alias of git's config) is
// said in conch help security.
func movesCheckout(line, cwd string) (checkoutMove, bool) {
	if !saysGit(line) {
		return checkoutMove{}, false // the common case, at every shell step
	}
	if len(line) > maxShellLine {
		line = line[:maxShellLine] // a command past this is a script: its start is read
	}
	r := &shellReader{budget: 4 * maxShellLine}
	return r.line(line, cwd, 0)
}

// saysGit says whether a line may run git: the word, once quotes and
// backslashes (which the shell takes out) are taken out.
func saysGit(line string) bool { return saysWord(line, "git") }

// shellReader reads a line's simple commands in order, keeping the folder
// they run in. budget is how many more bytes it reads, strings read again
// counted: a line built to be read again and again (each sh -c quoting
// the next four times over) is taken to move the checkout.
type shellReader struct{ budget int }

// shell operators, as shellParts gives them: a part that starts with
// opMark is an operator, not a command.
const opMark = "\x00"

// line reads one command line run in dir.
func (r *shellReader) line(line, dir string, depth int) (checkoutMove, bool) {
	if r.budget -= len(line); depth > maxShellDepth || r.budget < 0 {
		return checkoutMove{Words: "git (a command nested too deep to read)", Dir: dir}, true
	}
	var (
		stack  []string // the folders of the subshells open, outermost first
		pushed []string // pushd's stack
		before string   // the folder before the last cd, for a part after ||
		lastCd bool     // the last command was a cd that took
		prevOp string
	)
	parts := shellParts(line)
	for i, part := range parts {
		if op, isOp := strings.CutPrefix(part, opMark); isOp {
			switch op {
			case "(":
				stack = append(stack, dir)
			case ")":
				if n := len(stack); n > 0 {
					dir, stack = stack[n-1], stack[:n-1]
				}
			}
			prevOp = op
			continue
		}
		nextOp := ""
		if i+1 < len(parts) {
			nextOp, _ = strings.CutPrefix(parts[i+1], opMark)
		}
		if prevOp == "||" && lastCd {
			dir = before // it runs only when the cd failed
		}
		words, err := shlex.Split(part)
		if err != nil {
			words = strings.Fields(part)
		}
		// A command in a pipeline or in the background runs in a subshell:
		// a cd there does not last.
		sub := prevOp == "|" || nextOp == "|" || nextOp == "&"
		lastCd = false
		switch cmd := plainWords(words); {
		case len(cmd) == 0:
		case cmd[0] == "cd" || cmd[0] == "pushd":
			to, ok := cdTarget(dir, cmd[1:])
			if ok && !sub {
				if cmd[0] == "pushd" {
					pushed = append(pushed, dir)
				}
				before, dir, lastCd = dir, to, true
			}
		case cmd[0] == "popd":
			if n := len(pushed); n > 0 && !sub {
				dir, pushed = pushed[n-1], pushed[:n-1]
			}
		default:
			if m, ok := r.command(cmd, dir, depth); ok {
				return m, true
			}
		}
		prevOp = ""
	}
	return checkoutMove{}, false
}

// cdTarget is the folder cd or pushd goes to: one that is there, else
// none (a cd that fails leaves the folder as it was). ~, - and a variable
// are not read.
func cdTarget(dir string, args []string) (string, bool) {
	for len(args) > 0 && (args[0] == "-L" || args[0] == "-P" || args[0] == "-e" || args[0] == "--") {
		args = args[1:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "~") || args[0] == "-" || strings.Contains(args[0], "$") {
		return "", false
	}
	to := args[0]
	if !filepath.IsAbs(to) {
		if dir == "" {
			return "", false
		}
		to = filepath.Join(dir, to)
	}
	if !place.IsDir(to) {
		return "", false
	}
	return filepath.Clean(to), true
}

// plainWords is the command that words run, past VAR=value assignments
// and the shell's own words before a command (then, do, !, {).
func plainWords(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "="):
			words = words[1:]
		case w == "then" || w == "do" || w == "else" || w == "elif" || w == "if" || w == "while" || w == "until" || w == "!" || w == "{" || w == "}":
			words = words[1:]
		default:
			return words
		}
	}
	return nil
}

// wrapperOpts says, for a wrapper that runs the command after its own
// options, the options that take a value (a "" entry: the first word after
// the options is the wrapper's too, as timeout's duration). A switch, not
// a map: a map is built when the package starts, in every command.
func wrapperOpts(name string) (opts []string, ok bool) {
	switch name {
	case "sudo":
		return []string{"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--host", "--prompt", "--chdir", "--role", "--type", "--other-user", "--command-timeout"}, true
	case "doas":
		return []string{"-u", "-C"}, true
	case "env":
		return []string{"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}, true
	case "timeout":
		return []string{"-s", "-k", "--signal", "--kill-after", ""}, true
	case "nice":
		return []string{"-n", "--adjustment"}, true
	case "ionice":
		return []string{"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"}, true
	case "nohup":
		return nil, true
	case "time":
		return []string{"-f", "-o", "--format", "--output"}, true
	case "command":
		return nil, true
	case "builtin":
		return nil, true
	case "exec":
		return []string{"-a"}, true
	case "setsid":
		return nil, true
	case "stdbuf":
		return []string{"-i", "-o", "-e", "--input", "--output", "--error"}, true
	case "xargs":
		return []string{"-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--max-lines", "--max-chars", "--delimiter", "--eof", "--arg-file", "--replace"}, true
	case "chrt":
		return nil, true
	case "unbuffer":
		return nil, true
	case "watch":
		return []string{"-n", "-d", "--interval"}, true
	}
	return nil, false
}

// command judges one simple command (past assignments) run in dir.
func (r *shellReader) command(cmd []string, dir string, depth int) (checkoutMove, bool) {
	name := filepath.Base(cmd[0])
	switch name {
	case "git":
		return r.git(cmd, dir, false, depth)
	case "eval":
		return r.line(strings.Join(cmd[1:], " "), dir, depth+1)
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox":
		return r.shell(cmd, dir, depth)
	case "find":
		// find ... -exec CMD ... ; (or +): CMD runs with the files found,
		// which are not known here.
		for i, w := range cmd {
			if w != "-exec" && w != "-execdir" && w != "-ok" && w != "-okdir" {
				continue
			}
			run := cmd[i+1:]
			for j, a := range run {
				if a == ";" || a == "+" {
					run = run[:j]
					break
				}
			}
			if next := plainWords(run); len(next) > 0 && filepath.Base(next[0]) == "git" {
				if m, ok := r.git(next, dir, true, depth); ok {
					return m, true
				}
			} else if len(next) > 0 {
				if m, ok := r.command(next, dir, depth+1); ok {
					return m, true
				}
			}
		}
		return checkoutMove{}, false
	}
	opts, ok := wrapperOpts(name)
	if !ok {
		return checkoutMove{}, false
	}
	rest, at, split := cmd[1:], dir, ""
	wantsWord := false
	for _, o := range opts {
		wantsWord = wantsWord || o == ""
	}
	for len(rest) > 0 {
		w := rest[0]
		if w == "--" {
			rest = rest[1:]
			break
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			if name == "env" && strings.Contains(w, "=") {
				rest = rest[1:]
				continue
			}
			if wantsWord {
				wantsWord, rest = false, rest[1:]
				continue
			}
			break
		}
		flag, val, hasVal := strings.Cut(w, "=")
		takes := slicesHasFlag(opts, flag)
		if !takes && !strings.HasPrefix(w, "--") {
			// A cluster of one-letter options: the first that takes a
			// value takes the rest of the word, or the next word.
			for j := 1; j < len(w); j++ {
				if slicesHasFlag(opts, "-"+w[j:j+1]) {
					takes, flag = true, "-"+w[j:j+1]
					if val, hasVal = w[j+1:], j+1 < len(w); !hasVal {
						val = ""
					}
					break
				}
			}
		}
		rest = rest[1:]
		if takes && !hasVal && len(rest) > 0 {
			val, rest = rest[0], rest[1:]
		}
		switch {
		case takes && (flag == "-C" || flag == "--chdir" || (name == "sudo" && flag == "-D")):
			if to, ok := cdTarget(at, []string{val}); ok {
				at = to
			}
		case takes && (flag == "-S" || flag == "--split-string"):
			split = val
		}
	}
	if split != "" {
		return r.line(split+" "+shellJoin(rest), at, depth+1)
	}
	if len(rest) == 0 || (name == "command" && slicesHasFlag(cmd[1:], "-v", "-V")) {
		return checkoutMove{}, false
	}
	next := plainWords(rest)
	if len(next) == 0 {
		return checkoutMove{}, false
	}
	if name == "xargs" && filepath.Base(next[0]) == "git" {
		// The arguments come from its input, which is not read.
		return r.git(next, at, true, depth)
	}
	return r.command(next, at, depth+1)
}

// shell reads sh -c STRING (any shell, any cluster of its one-letter
// options holding c): the string is read again as a line.
func (r *shellReader) shell(cmd []string, dir string, depth int) (checkoutMove, bool) {
	rest := cmd[1:]
	if filepath.Base(cmd[0]) == "busybox" {
		if len(rest) == 0 {
			return checkoutMove{}, false
		}
		return r.command(rest, dir, depth+1)
	}
	runs := false
	// The word after the options is the string; after a c, the next word
	// is, whatever it looks like (taken to run rather than refused).
	for !runs && len(rest) > 0 && strings.HasPrefix(rest[0], "-") && rest[0] != "-" && rest[0] != "--" {
		w := rest[0]
		rest = rest[1:]
		switch {
		case w == "-o" || w == "+o" || w == "--rcfile" || w == "--init-file":
			if len(rest) > 0 {
				rest = rest[1:]
			}
		case w == "--command":
			runs = true
		case !strings.HasPrefix(w, "--") && strings.ContainsRune(w, 'c'):
			runs = true
		}
	}
	if !runs || len(rest) == 0 {
		return checkoutMove{}, false // a script file, or the shell reading its input: not read
	}
	return r.line(rest[0], dir, depth+1)
}

// git judges a git command line run in dir. unknown: arguments not on the
// line come after it (xargs), so what a pathspec would be is not known.
func (r *shellReader) git(cmd []string, dir string, unknown bool, depth int) (checkoutMove, bool) {
	m := checkoutMove{Dir: dir}
	aliases := map[string]string{}
	i := 1
	for ; i < len(cmd); i++ {
		w := cmd[i]
		flag, val, hasVal := strings.Cut(w, "=")
		value := func() string {
			if hasVal {
				return val
			}
			if i+1 < len(cmd) {
				i++
				return cmd[i]
			}
			return ""
		}
		switch {
		case w == "-C":
			v := value()
			if !filepath.IsAbs(v) && m.Dir != "" {
				v = filepath.Join(m.Dir, v)
			}
			m.Dir = filepath.Clean(v)
		case w == "-c":
			if k, v, ok := strings.Cut(value(), "="); ok && strings.HasPrefix(strings.ToLower(k), "alias.") {
				aliases[strings.ToLower(strings.TrimPrefix(k, k[:len("alias.")]))] = v
			}
		case flag == "--work-tree":
			v := value()
			if !filepath.IsAbs(v) && m.Dir != "" {
				v = filepath.Join(m.Dir, v)
			}
			m.Dir = filepath.Clean(v)
		case flag == "--git-dir" || flag == "--namespace" || flag == "--exec-path" || flag == "--config-env" || flag == "--super-prefix":
			if !hasVal && flag != "--exec-path" {
				value()
			}
		case strings.HasPrefix(w, "-"):
		default:
			goto sub
		}
	}
	return m, false
sub:
	sub, args := cmd[i], cmd[i+1:]
	if v, ok := aliases[strings.ToLower(sub)]; ok {
		v = strings.TrimSpace(v)
		if depth > maxShellDepth {
			return checkoutMove{Words: "git (an alias nested too deep to read)", Dir: m.Dir}, true
		}
		if sh, isShell := strings.CutPrefix(v, "!"); isShell {
			return r.line(sh+" "+shellJoin(args), m.Dir, depth+1)
		}
		words, err := shlex.Split(v)
		if err != nil {
			words = strings.Fields(v)
		}
		return r.git(append(append([]string{"git"}, words...), args...), m.Dir, unknown, depth+1)
	}
	if slicesHasFlag(args, "-h", "--help") {
		return m, false
	}
	words, ok := gitMoves(sub, args, m.Dir, unknown)
	m.Words = words
	return m, ok
}

// gitMoves says whether git's subcommand sub with args, run in dir,
// discards or rewrites uncommitted work, and names it.
func gitMoves(sub string, args []string, dir string, unknown bool) (string, bool) {
	has := func(flags ...string) bool { return slicesHasFlag(args, flags...) }
	switch sub {
	case "checkout":
		paths, dashed := pathspecs(args, []string{"-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"})
		if dashed || has("--pathspec-from-file") {
			// Files named: the tree or a folder of it is another's work too.
			if unknown || has("--pathspec-from-file") || wholeSpec(paths, dir) {
				return "git checkout -- .", true
			}
			return "", false
		}
		if wholeSpec(paths, dir) {
			return "git checkout .", true
		}
		if len(paths) == 0 && !unknown && !has("-b", "-B", "--orphan", "-f", "--force", "--detach") {
			return "", false
		}
		return "git checkout", true
	case "restore":
		if (has("-S", "--staged") && !has("-W", "--worktree")) || has("-h") {
			return "", false
		}
		paths, _ := pathspecs(args, []string{"-s", "--source", "--pathspec-from-file"})
		if unknown || has("--pathspec-from-file") || wholeSpec(paths, dir) {
			return "git restore .", true
		}
		return "", false
	case "switch":
		if len(args) == 0 && !unknown {
			return "", false
		}
		return "git switch", true
	case "stash":
		if len(args) > 0 && (args[0] == "list" || args[0] == "show" || args[0] == "create") {
			return "", false
		}
		return "git stash", true
	case "reset":
		for _, f := range []string{"--hard", "--keep", "--merge"} {
			if has(f) {
				return "git reset " + f, true
			}
		}
		return "", false
	case "rebase":
		return "git rebase", true
	case "pull":
		return "git pull", true
	case "merge":
		return "git merge", true
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
			return "", false
		}
		return "git clean -f", true
	}
	return "", false
}

// pathspecs are a checkout's or restore's words that are not options (and
// not the values of the options that take one); dashed says a -- came,
// after which every word is a path.
func pathspecs(args []string, valued []string) (paths []string, dashed bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case dashed:
			paths = append(paths, a)
		case a == "--":
			dashed, paths = true, nil // before it, a tree-ish
		case strings.HasPrefix(a, "-"):
			if !strings.Contains(a, "=") && slicesHasFlag(valued, a) {
				i++
			}
		default:
			paths = append(paths, a)
		}
	}
	return paths, dashed
}

// wholeSpec says whether one of the pathspecs reaches past one file: the
// tree (., :/, a magic), a glob, or a folder.
func wholeSpec(paths []string, dir string) bool {
	for _, p := range paths {
		switch {
		case p == "." || p == "./" || p == "*" || strings.HasPrefix(p, ":"):
			return true
		case strings.ContainsAny(p, "*?[") || strings.HasSuffix(p, "/"):
			return true
		}
		full := p
		if !filepath.IsAbs(full) {
			if dir == "" {
				continue
			}
			full = filepath.Join(dir, p)
		}
		if place.IsDir(full) {
			return true
		}
	}
	return false
}

func slicesHasFlag(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f {
				return true
			}
		}
	}
	return false
}

// shellJoin writes words back as a line the shell splits into them again.
func shellJoin(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// shellParts cuts a command line into its simple commands and the
// operators between them (each an opMark and ; && || | & ( or )): at new
// lines, braces, parentheses, and into $( … ) and backticks (each an
// opening and a closing), none of them quoted. Quotes and escapes stay in
// each part, for shlex; inside a $( … ) the quotes start afresh, as the
// shell's do.
func shellParts(line string) []string {
	var (
		parts []string
		cur   strings.Builder
		quote rune   // ' or " while inside one
		outer []rune // the quote each open $( or ` was in
		ticks []bool // for each open substitution: a backtick's
	)
	cut := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			parts = append(parts, s)
		}
		cur.Reset()
	}
	op := func(o string) {
		cut()
		parts = append(parts, opMark+o)
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
			if rs[i+1] == '\n' {
				i++ // a line continued
				continue
			}
			cur.WriteRune(r)
			cur.WriteRune(rs[i+1])
			i++
		case quote == '"' && r == '"':
			cur.WriteRune(r)
			quote = 0
		case r == '`' && len(ticks) > 0 && ticks[len(ticks)-1] && quote == 0:
			// The backtick that closes one.
			op(")")
			quote, outer, ticks = outer[len(outer)-1], outer[:len(outer)-1], ticks[:len(ticks)-1]
			if quote != 0 {
				cur.WriteRune(quote)
			}
		case r == '`' || (r == '$' && i+1 < len(rs) && rs[i+1] == '('):
			// A command inside: what is before it and what is in it are
			// each a command of their own (inside double quotes too).
			if r == '$' {
				i++
			}
			if quote != 0 {
				// The quote is left open in the part before: close it
				// there (it opens again after the substitution).
				cur.WriteRune(quote)
			}
			op("(")
			outer, ticks, quote = append(outer, quote), append(ticks, r == '`'), 0
		case quote == '"':
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			cur.WriteRune(r)
			quote = r
		case r == ')' && len(ticks) > 0 && !ticks[len(ticks)-1]:
			op(")")
			quote, outer, ticks = outer[len(outer)-1], outer[:len(outer)-1], ticks[:len(ticks)-1]
			if quote != 0 {
				cur.WriteRune(quote)
			}
		case r == '&' || r == '|':
			o := string(r)
			if i+1 < len(rs) && (rs[i+1] == r || (r == '|' && rs[i+1] == '&')) {
				if rs[i+1] == r {
					o += o
				}
				i++
			}
			op(o)
		case r == '(' || r == ')':
			op(string(r))
		case r == ';' || r == '\n' || r == '{' || r == '}':
			op(";")
		default:
			cur.WriteRune(r)
		}
	}
	cut()
	return parts
}
