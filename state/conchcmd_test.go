package state

import (
	"strings"
	"testing"
)

// TestRunsConchUnnamed: a line runs conch unnamed wherever its conch
// command is (first, after another command, in a subshell, a substitution
// or a string read again, through a wrapper), unless that command names a
// chat or CONCH_CHAT was set for it; a word that only mentions conch runs
// nothing.
func TestRunsConchUnnamed(t *testing.T) {
	for line, want := range map[string]bool{
		"conch chats list":                                     true,
		"/usr/local/bin/conch notes":                           true,
		"echo x; conch chats list":                             true,
		"true && conch chats list":                             true,
		"false || conch chats list":                            true,
		"echo x | conch chat message c_2 -":                    true,
		"echo x\nconch chats list":                             true,
		"cd web && (conch step edit --file a.go)":              true,
		"echo \"$(conch chat show --json)\"":                   true,
		"x=`conch chat show`":                                  true,
		"if conch wait chat c_2; then echo ok; fi":             true,
		"env TERM=dumb conch chats list":                       true,
		"timeout 5 conch wait chat c_2":                        true,
		"nohup conch notes &":                                  true,
		"sh -c 'echo a; conch chats list'":                     true,
		"bash -lc \"conch chats list\"":                        true,
		"eval conch chats list":                                true,
		"con''ch chats list":                                   true,
		"echo \"$CONCH_CHAT\"; conch chats list":               true,
		"grep -- --chat f; conch chats list":                   true,
		"FOO=1 conch chats list":                               true,
		"conch chat message c_2 -- --chat":                     true,
		"export CONCH_CHAT=c_1; echo; conch chats list;":       false,
		"CONCH_CHAT=c_3 conch chats list":                      false,
		"env CONCH_CHAT=c_3 conch chats list":                  false,
		"conch chats list --chat c_3":                          false,
		"conch --chat=c_3 chats list":                          false,
		"grep conch README":                                    false,
		"echo 'conch chats list'":                              false,
		"cat ~/.conch/config.toml":                             false,
		"ls conch/":                                            false,
		"command -v conch":                                     false,
		"go test ./...":                                        false,
		"":                                                     false,
		"export CONCH_CHAT=c_1; unset CONCH_CHAT; conch notes": true,
	} {
		if got := RunsConchUnnamed(line); got != want {
			t.Errorf("RunsConchUnnamed(%q) = %v, want %v", line, got, want)
		}
	}
}

// FuzzRunsConchUnnamed: whatever the line, no panic; a line that runs
// conch says conch; CONCH_CHAT exported before it leaves nothing unnamed
// (the line conch puts it in is not put in again); single-quoted, the line
// is words, not commands; and a command before it changes nothing.
func FuzzRunsConchUnnamed(f *testing.F) {
	for _, s := range []string{
		"conch chats list", "echo x; conch chats list", "a && b || conch notes", "echo x | conch chat message c_2 -",
		"(conch wait chat c_2)", "echo \"$(conch chat show)\"", "`conch notes`", "sh -c 'conch notes'", "eval conch notes",
		"env A=1 timeout 5 conch notes", "CONCH_CHAT=c_1 conch notes", "conch notes --chat c_1", "grep conch f",
		"echo 'conch'", "con\\\nch notes", "x=\"$(echo '\"'; conch notes)\"", "bash -lc \"cd / && conch notes\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got := RunsConchUnnamed(line)
		if got && !saysWord(line, "conch") {
			t.Fatalf("%q runs conch without saying it", line)
		}
		if RunsConchUnnamed("export CONCH_CHAT=c_1; " + line) {
			t.Fatalf("%q, after CONCH_CHAT exported, runs conch unnamed", line)
		}
		if !strings.ContainsRune(line, '\'') && RunsConchUnnamed("echo '"+line+"'") {
			t.Fatalf("%q, single-quoted, is taken for a command", line)
		}
		if len(line) < 1000 && RunsConchUnnamed("true; "+line) != got {
			t.Fatalf("%q: a command before it changes what it runs", line)
		}
	})
}

// BenchmarkRunsConchUnnamed: what Gemini CLI's BeforeTool pays per shell
// command: a line with no conch in it (the common case) and one with.
func BenchmarkRunsConchUnnamed(b *testing.B) {
	for _, c := range []struct{ name, line string }{
		{"none", "go test ./... && git status --short | head -20"},
		{"after", "cd web && npm test; conch chat message c_2 \"tests pass\" --start-reply"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				RunsConchUnnamed(c.line)
			}
		})
	}
}
