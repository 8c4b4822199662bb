package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/cli"
	"github.com/conch-sh/conch/internal/benchhome"
)

// BenchmarkHot is each hot command's work in process, with allocations, in
// the homes testdata/bench/run times as whole processes (issue 25): a
// change that doubles one shows in benchstat before it lands.
//
//	go test ./cli -run '^$' -bench Hot -benchmem -count 10 > new.txt
//	benchstat old.txt new.txt
//
// In process, what a fresh process pays once (package initialisation,
// compiling a scrub rule) is paid on the first run only; testdata/bench/run
// measures that.
func BenchmarkHot(b *testing.B) {
	homes := []struct {
		name string
		o    benchhome.Options
	}{
		{"50-chats", benchhome.Options{Chats: 50, Events: 5000}},
		{"everyday", benchhome.Options{Chats: 50, Peers: 19, Goals: 30}},
		{"claims", benchhome.Options{Chats: 50, Peers: 19, Claims: 50}},
		{"messages", benchhome.Options{Chats: 50, Peers: 19, Messages: 5}},
		{"1000-chats", benchhome.Options{Chats: 1000}},
	}
	for _, hm := range homes {
		home := filepath.Join(b.TempDir(), "home")
		if err := benchhome.Fill(home, hm.o); err != nil {
			b.Fatal(err)
		}
		shared := filepath.Join(filepath.Dir(home), "work", "shared")
		h := hotHome{home: home, cwd: shared}
		// A Claude Code session in c_1's folder, its reply running: its
		// hooks' events, as the harness sends them.
		h.run(b, hotEvent(shared, "SessionStart", `,"source":"startup"`), "hook", "claude")
		h.run(b, hotEvent(shared, "UserPromptSubmit", `,"prompt":"measure me"`), "hook", "claude")
		edit := `,"tool_name":"Edit","tool_input":{"file_path":"` + shared + `/src/mine.go","old_string":"a","new_string":"b"},"tool_use_id":"t1"`
		pre := hotEvent(shared, "PreToolUse", edit)
		post := hotEvent(shared, "PostToolUse", edit+`,"tool_response":{"filePath":"`+shared+`/src/mine.go"}`)
		for _, c := range []struct {
			name, stdin string
			args        []string
		}{
			// --peek first, as testdata/bench/run times it: it says what
			// the others are doing every time, where notes says each
			// once a reply and then has nothing to say.
			{"notes-peek", "", []string{"notes", "--peek", "--chat", "c_1"}},
			{"notes", "", []string{"notes", "--chat", "c_1"}},
			{"step", "", []string{"step", "read", "--chat", "c_1", "--pid", "1"}},
			{"chats-list", "", []string{"chats", "list"}},
			{"pre-tool-use", pre, []string{"hook", "claude"}},
			{"post-tool-use", post, []string{"hook", "claude"}},
		} {
			b.Run(hm.name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					h.run(b, c.stdin, c.args...)
				}
			})
		}
	}
}

// hotHome runs conch in process against one home, from a folder.
type hotHome struct{ home, cwd string }

func (h hotHome) run(b *testing.B, stdin string, args ...string) {
	env := map[string]string{"CONCH_HOME": h.home, "HOME": filepath.Dir(h.home)}
	var errb bytes.Buffer
	code := cli.Main(args, cli.Env{
		In: strings.NewReader(stdin), Out: io.Discard, Err: &errb,
		Getenv: func(k string) string { return env[k] }, Now: time.Now, Hostname: hostname(), Cwd: h.cwd, PPID: os.Getpid(),
	})
	if code != 0 || errb.Len() > 0 {
		b.Fatalf("conch %v: exit %d: %s", args, code, errb.String())
	}
}

func hostname() string {
	h, _ := os.Hostname()
	return h
}

// hotEvent is a Claude Code hook event of session BENCH in folder.
func hotEvent(folder, name, extra string) string {
	return fmt.Sprintf(`{"session_id":"BENCH","transcript_path":"/nowhere.jsonl","cwd":%q,"permission_mode":"default","hook_event_name":%q%s}`, folder, name, extra)
}
