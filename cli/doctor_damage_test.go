package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// inHome runs one conch command in this process over home, as the person at
// a terminal when chat is "", else as that chat.
type inHome struct {
	t    *testing.T
	home string
	user string
	now  time.Time
}

func (h inHome) run(stdin, chat string, args ...string) (int, string, string) {
	var out, errs bytes.Buffer
	env := Env{
		In: strings.NewReader(stdin), Out: &out, Err: &errs, Terminal: chat == "",
		Getenv: func(k string) string {
			switch k {
			case "CONCH_HOME":
				return h.home
			case "HOME":
				return h.user
			case "CONCH_CHAT":
				return chat
			}
			return ""
		},
		Now: func() time.Time { return h.now }, Hostname: "test", Cwd: h.user, PPID: os.Getpid(),
	}
	code := Main(args, env)
	return code, out.String(), errs.String()
}

// must runs a command that must not fail (exit 1); other refusals are the
// command's own business.
func (h inHome) must(chat string, args ...string) string {
	h.t.Helper()
	code, out, errs := h.run("", chat, args...)
	if code == ExitFailed || code == ExitUsage {
		h.t.Fatalf("conch %s (as %q): exit %d: %s", strings.Join(args, " "), chat, code, errs)
	}
	return out
}

// richHome makes a home with a record of every kind conch writes: chats and
// a task, their logs and heads, a message, a stop request, a chain, a wait,
// a watch, a session link, an adoption, keys, counters and the index.
func richHome(t *testing.T, dir string) inHome {
	t.Helper()
	h := inHome{t: t, home: filepath.Join(dir, "home"), user: filepath.Join(dir, "user"), now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
	if err := os.MkdirAll(h.user, 0o700); err != nil {
		t.Fatal(err)
	}
	h.must("", "chat", "new", "--title", "Release notes", "--folder", h.user)
	h.must("", "chat", "new", "--title", "Fix the login", "--folder", h.user, "--key", "k-login")
	h.must("c_1", "reply", "start", "--person")
	h.must("c_1", "task", "new", "--title", "Run the tests")
	h.must("c_1", "chat", "message", "c_2", "The changelog is done.", "--watch")
	h.must("c_2", "reply", "start")
	h.must("c_1", "chat", "stop", "c_2", "--reason", "wait for me")
	h.must("c_1", "wait", "chat", "c_2", "--detach")
	h.must("c_1", "chat", "set", "--goal", "ship it")
	session := filepath.Join(h.user, "session.jsonl")
	if err := os.WriteFile(session, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.must("", "adopt", "claude", "--chat", "c_2", session)
	if code, _, errs := h.run(`{"session_id":"S1","cwd":"`+h.user+`","hook_event_name":"SessionStart","source":"startup"}`, "", "hook", "claude"); code != 0 || errs != "" {
		t.Fatalf("hook: exit %d: %s", code, errs)
	}
	h.must("", "gc")
	return h
}

// usable runs a round of commands over every chat; none may fail.
func (h inHome) usable() {
	h.t.Helper()
	h.must("", "chats", "list")
	h.must("", "requests")
	for _, id := range []string{"c_1", "c_2", "c_3", "t_1"} {
		h.must("", "status", id, "--since", "0")
		h.must(id, "step", "read")
		h.must(id, "notes")
	}
	h.must("c_1", "messages")
	h.must("c_1", "wait", "list")
	h.must("c_1", "tasks")
	h.must("c_1", "chat", "message", "c_2", "After the repair.")
	h.must("c_1", "watch", "c_2")
	h.must("c_1", "reply", "end", "--text", "done")
	h.must("", "chat", "new", "--title", "New after the repair")
	h.must("", "gc")
	if code, _, errs := h.run(`{"session_id":"S1","cwd":"`+h.user+`","hook_event_name":"UserPromptSubmit","prompt":"hi"}`, "", "hook", "claude"); code != 0 || errs != "" {
		h.t.Fatalf("hook after the repair: exit %d: %s", code, errs)
	}
	if code, out, errs := h.run("", "", "doctor"); code != 0 {
		h.t.Fatalf("doctor after the round: exit %d: %s%s", code, out, errs)
	}
}

// records are the home's record files and folders (slash paths).
func records(t *testing.T, home string) (files, dirs []string) {
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(home, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
		case d.IsDir():
			dirs = append(dirs, rel)
		case strings.HasSuffix(rel, ".json") && !strings.HasPrefix(d.Name(), "."):
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	sort.Strings(dirs)
	return files, dirs
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sibling is another record of the same kind beside rel (for a record
// that holds another's id), or "".
func sibling(files []string, rel string) string {
	dir := filepath.Dir(rel)
	for _, f := range files {
		if f != rel && filepath.Dir(f) == dir && (filepath.Base(f) == "head.json") == (filepath.Base(rel) == "head.json") {
			return f
		}
	}
	return ""
}

// TestDoctorEveryDamage damages each record of a home that has one of
// every kind, in each way a record can be wrong, and each folder; doctor
// must name it, --repair must leave a home that doctor calls healthy, and
// every command must then work. Every damage of every record takes half a
// minute, and runs with CONCH_FAULT_ALL=1 (as the fault campaign does);
// otherwise every damage of a chat record and of the index, and one
// damage (in turn) of each other record.
func TestDoctorEveryDamage(t *testing.T) {
	all := os.Getenv("CONCH_FAULT_ALL") != ""
	base := t.TempDir()
	pristine := richHome(t, base)
	files, dirs := records(t, pristine.home)
	for _, want := range []string{"chats/c_1.json", "tasks/t_1.json", "messages/m_1.json", "requests/r_1.json", "chains/ch_1.json",
		"watch/c_1.json", "waits/c_1.json", "log/c_1/head.json", "log/c_1/000000000001.json", "log/gc.json",
		"sessions/claude/S1.json", "adopted/c_2.json", "keys.json", "counters.json", "index.json"} {
		if !contains(files, want) {
			t.Fatalf("the home has no %s to damage: %v", want, files)
		}
	}
	big := []byte(`{"id": "` + strings.Repeat("x", store.MaxRecord) + `"}`)
	type damage struct {
		name string
		do   func(p string, rel string) error
	}
	damages := []damage{
		{"torn", func(p, _ string) error {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, data[:len(data)/2], 0o600)
		}},
		{"null", func(p, _ string) error { return os.WriteFile(p, []byte("null\n"), 0o600) }},
		{"array", func(p, _ string) error { return os.WriteFile(p, []byte("[]\n"), 0o600) }},
		{"string", func(p, _ string) error { return os.WriteFile(p, []byte(`"c_1"`), 0o600) }},
		{"too-large", func(p, _ string) error { return os.WriteFile(p, big, 0o600) }},
		{"folder", func(p, _ string) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.MkdirAll(filepath.Join(p, "inside"), 0o700)
		}},
	}
	for n, rel := range files {
		ds := damages
		if other := sibling(files, rel); other != "" && filepath.Base(rel) != "head.json" {
			ds = append(ds, damage{"misnamed", nil})
		}
		for i, d := range ds {
			if !all && rel != "chats/c_1.json" && rel != "index.json" && i != n%len(ds) && (d.name != "misnamed" || rel != "messages/m_1.json") {
				continue
			}
			t.Run(strings.ReplaceAll(rel, "/", "_")+"/"+d.name, func(t *testing.T) {
				t.Parallel()
				h := pristine
				h.t = t
				h.home = filepath.Join(t.TempDir(), "home")
				copyTree(t, pristine.home, h.home)
				p := filepath.Join(h.home, filepath.FromSlash(rel))
				if d.name == "misnamed" {
					other := sibling(files, rel)
					data, err := os.ReadFile(filepath.Join(h.home, filepath.FromSlash(other)))
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, data, 0o600); err != nil {
						t.Fatal(err)
					}
				} else if err := d.do(p, rel); err != nil {
					t.Fatal(err)
				}
				checkRepair(t, h, p)
			})
		}
	}
	for _, rel := range dirs {
		t.Run(strings.ReplaceAll(rel, "/", "_")+"/file", func(t *testing.T) {
			t.Parallel()
			h := pristine
			h.t = t
			h.home = filepath.Join(t.TempDir(), "home")
			copyTree(t, pristine.home, h.home)
			p := filepath.Join(h.home, filepath.FromSlash(rel))
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			checkRepair(t, h, p)
		})
	}
}

// checkRepair: doctor names the damage at p, --repair mends the home, and
// the home is then healthy and usable.
func checkRepair(t *testing.T, h inHome, p string) {
	t.Helper()
	code, out, errs := h.run("", "", "doctor")
	if code != ExitFailed || !strings.Contains(out, p+":") {
		t.Fatalf("doctor did not name %s: exit %d\n%s%s", p, code, out, errs)
	}
	if code, out, errs := h.run("", "", "doctor", "--repair"); code != 0 {
		t.Fatalf("doctor --repair: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := h.run("", "", "doctor"); code != 0 {
		t.Fatalf("after the repair, doctor: exit %d\n%s%s", code, out, errs)
	}
	h.usable()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
