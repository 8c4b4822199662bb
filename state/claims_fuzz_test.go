package state

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/shlex"
)

// FuzzClaimGlob: the glob reading agrees with filepath.Match, and overlap
// is never denied where one file is covered by both patterns.
func FuzzClaimGlob(f *testing.F) {
	for _, s := range [][3]string{
		{"/p/src/*.ts", "/p/src/auth.ts", "/p/src/a*"},
		{"/p/src/[a-c]?.go", "/p/src/b1.go", "/p/src/[^x]*"},
		{"/p/src", "/p/src/deep/file", "/p/*/deep"},
		{`/p/a\*b`, "/p/a*b", "/p/a?b"},
		{"/p/[", "/p/x", "/p/[]]"},
		{"/p/*/*.md", "/p/docs/x.md", "/p/docs"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, a, file, b string) {
		if !strings.HasPrefix(a, "/") || !strings.HasPrefix(b, "/") || !strings.HasPrefix(file, "/") {
			return
		}
		file = filepath.Clean(file)
		ca := &Claim{Pattern: a, Glob: isGlob(a)}
		cb := &Claim{Pattern: b, Glob: isGlob(b)}
		for _, seg := range segments(a) {
			_, err := globTokens(seg)
			if _, merr := filepath.Match(seg, "x"); err == nil && merr != nil {
				t.Fatalf("conch reads segment %q, filepath.Match refuses it: %v", seg, merr)
			}
		}
		if validGlob(a) != nil || validGlob(b) != nil {
			return
		}
		// A segment that matches a name matches that name as a token list too.
		for _, seg := range segments(a) {
			toks, _ := globTokens(seg)
			for _, name := range segments(file) {
				if ok, _ := filepath.Match(seg, name); ok && !tokensMeet(toks, literalTokens(name)) {
					t.Fatalf("%q matches %q, but the tokens do not meet", seg, name)
				}
			}
		}
		if ca.covers(file) && cb.covers(file) && !ca.overlaps(cb) {
			t.Fatalf("%q and %q both cover %q but are said not to overlap", a, b, file)
		}
		if ca.overlaps(cb) != cb.overlaps(ca) {
			t.Fatalf("overlap of %q and %q is not symmetric", a, b)
		}
	})
}

func literalTokens(name string) []globToken {
	var out []globToken
	for _, r := range name {
		out = append(out, globToken{kind: 'c', r: r})
	}
	return out
}

// FuzzMovesCheckout: the shell-command classifier never panics; a line
// that never says git (quotes and backslashes out) moves nothing; one
// wrapped whole in single quotes, as an argument, moves nothing; a command
// before it, after a ;, changes nothing of the verdict; and a move it
// finds is found still through every wrapper that runs the line (sh -c,
// bash -lc, eval, env, timeout, nice, sudo -u, cd . &&), and through git
// -c alias.X=... when the line is one git command.
func FuzzMovesCheckout(f *testing.F) {
	for _, s := range []string{
		"git stash", "git checkout -b 'new branch'", "git checkout -- a.go", "cd x && git reset --hard HEAD~1",
		"echo \"$(git stash pop)\"", "git -C ../other rebase main", "git clean -fdx", "git clean -n -f",
		"FOO=1 sudo -E git switch main", "git stash list", "echo 'git stash'", "if true; then git rebase -i x; fi",
		"git commit -am 'reset --hard'", "`git stash`", "git \\\n stash", "git status | grep stash",
		"sh -c 'git stash'", "bash -lc \"cd /tmp && git pull\"", "eval git merge x", "env -i A=1 git restore .",
		"timeout -s KILL 5 git checkout .", "nice -n 5 git reset --keep", "sudo -u bob git stash pop",
		"xargs git checkout --", "git -c alias.s=stash s", "git -c alias.x='!git stash' x", "pushd .; git stash; popd",
		"(cd /; git stash)", "cd / || git stash", "env -S 'git stash'", "g''it stash", "git checkout :/",
	} {
		f.Add(s)
	}
	wrap := []func(string) string{
		func(l string) string { return "sh -c " + shellJoin([]string{l}) },
		func(l string) string { return "bash -lc " + shellJoin([]string{l}) },
		func(l string) string { return "eval " + shellJoin([]string{l}) },
		func(l string) string { return "cd . && " + l },
	}
	prefix := []string{"env ", "timeout 10 ", "nice -n 10 ", "sudo -u bob ", "env A=1 nohup "}
	f.Fuzz(func(t *testing.T, line string) {
		m, ok := movesCheckout(line, "")
		if ok && !strings.HasPrefix(m.Words, "git") {
			t.Fatalf("%q: a move that is not git's: %q", line, m.Words)
		}
		if ok && !saysGit(line) {
			t.Fatalf("%q moves a checkout without saying git", line)
		}
		if !strings.ContainsRune(line, '\'') {
			if _, q := movesCheckout("echo '"+line+"'", ""); q {
				t.Fatalf("%q, single-quoted, is taken for a command", line)
			}
		}
		if strings.Count(line, "'")%2 == 0 && strings.Count(line, "\"")%2 == 0 && !strings.ContainsAny(line, "\\`#") {
			if _, after := movesCheckout("true; "+line, ""); after != ok {
				t.Fatalf("%q: %v alone, %v after true;", line, ok, after)
			}
		}
		if !ok || strings.ContainsAny(line, "\x00") {
			return
		}
		for _, w := range wrap {
			if _, still := movesCheckout(w(line), ""); !still {
				t.Fatalf("%q moves, but not wrapped as %q", line, w(line))
			}
		}
		words, err := shlex.Split(line)
		if err != nil || len(words) < 2 || words[0] != "git" || strings.ContainsAny(line, ";&|()`$\n{}") {
			return
		}
		for _, p := range prefix {
			if _, still := movesCheckout(p+line, ""); !still {
				t.Fatalf("%q moves, but not after %q", line, p)
			}
		}
		// The subcommand as an alias of itself.
		if !strings.HasPrefix(words[1], "-") {
			aliased := append([]string{"git", "-c", "alias.zz=" + words[1], "zz"}, words[2:]...)
			if _, still := movesCheckout(shellJoin(aliased), ""); !still {
				t.Fatalf("%q moves, but not as %q", line, shellJoin(aliased))
			}
		}
	})
}

// FuzzClaimsRecord: a claims record that cannot be read is an error that
// names the file, never a panic.
func FuzzClaimsRecord(f *testing.F) {
	fuzzRecord[claimsFile](f, claimsRel, func(tx *View) error { _, err := tx.Claims().live(); return err },
		`{"claims":[{"chat":"c_1","pattern":"/p/a","until":"2030-01-01T00:00:00Z"}]}`)
}

// TestHoldsWhole: a claim holds the whole of a place when it names it or a
// folder above, or is a glob whose every segment past it matches any name.
func TestHoldsWhole(t *testing.T) {
	for _, c := range []struct {
		pattern string
		whole   bool
	}{
		{"/r", true}, {"/", true}, {"/r/src", false}, {"/r/*", true}, {"/r/*/*", true}, {"/r/?*", true},
		{"/r/*/x.go", false}, {"/r/src/*", false}, {"/*", true}, {"/r/*.go", false}, {"/other/*", false},
	} {
		cl := Claim{Pattern: c.pattern, Glob: isGlob(c.pattern)}
		if got := holdsWhole(&cl, "/r"); got != c.whole {
			t.Errorf("holdsWhole(%s, /r) = %v, want %v", c.pattern, got, c.whole)
		}
	}
}
