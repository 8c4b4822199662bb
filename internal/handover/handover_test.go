package handover

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFirstWord(t *testing.T) {
	for args, want := range map[string]string{"step edit": "step", "--chat c_1 notes": "notes", "--json --chat=c_2 chats list": "chats", "": "", "-- step": "", "--json": ""} {
		if got := FirstWord(strings.Fields(args)); got != want {
			t.Errorf("FirstWord(%q) = %q, want %q", args, got, want)
		}
	}
}

// Every command runs on the backend but those that never reach the home's
// records: version, help, completion, mcp, backend join.
func TestRuns(t *testing.T) {
	for args, want := range map[string]bool{
		"step run --chat c_1": true, "notes": true, "--chat c_1 notes --peek": true, "hook claude": true,
		"backend migrate": true, "--json backend doctor": true, "chats list": true,
		"": false, "version": false, "--json version": false, "help step": false, "completion bash": false,
		"mcp": false, "backend join nats://127.0.0.1:4222": false, "--json backend --chat c_1 join x": false,
	} {
		if got := Runs(strings.Fields(args)); got != want {
			t.Errorf("Runs(%q) = %v, want %v", args, got, want)
		}
	}
}

// A home's config may name a backend only with a [backend] table; without
// one it surely names none. CONCH_BACKEND_URL names one whatever the
// config says; without CONCH_HOME the home is ~/.conch.
func TestWanted(t *testing.T) {
	dir := t.TempDir()
	write := func(home, config string) string {
		t.Helper()
		p := filepath.Join(dir, home)
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if config != "" {
			if err := os.WriteFile(filepath.Join(p, "config.toml"), []byte(config), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	backend := write("backend", "[preferences]\ncomputer = \"laptop\"\n\n[backend]\nurl = \"nats://127.0.0.1:4222\"\n")
	local := write("local", "[preferences]\ncomputer = \"laptop\"\n# backend.url is not set\n")
	none := write("none", "")
	user := write("user", "")
	write("user/.conch", "[backend]\nurl = \"nats://127.0.0.1:4222\"\n")
	for _, c := range []struct {
		env  map[string]string
		args string
		want bool
	}{
		{map[string]string{"CONCH_HOME": backend}, "step run", true},
		{map[string]string{"CONCH_HOME": backend}, "version", false},
		{map[string]string{"CONCH_HOME": backend}, "backend join x", false},
		{map[string]string{"CONCH_HOME": local}, "step run", false},
		{map[string]string{"CONCH_HOME": none}, "step run", false},
		{map[string]string{"CONCH_HOME": filepath.Join(dir, "gone")}, "step run", false},
		{map[string]string{"CONCH_HOME": local, "CONCH_BACKEND_URL": "nats://127.0.0.1:4222"}, "notes", true},
		{map[string]string{"CONCH_HOME": local, "CONCH_BACKEND_URL": "nats://127.0.0.1:4222"}, "help", false},
		{map[string]string{"HOME": user}, "notes", true},
		{map[string]string{"HOME": none}, "notes", false},
	} {
		for k, v := range map[string]string{"HOME": "", "CONCH_HOME": "", "CONCH_BACKEND_URL": ""} {
			if c.env[k] == "" {
				t.Setenv(k, v)
			} else {
				t.Setenv(k, c.env[k])
			}
		}
		if got := Wanted(strings.Fields(c.args), os.Getenv); got != c.want {
			t.Errorf("%v: Wanted(%q) = %v, want %v", c.env, c.args, got, c.want)
		}
	}
}

// The program is looked for beside conch first, then on PATH, in its
// order (a relative or empty folder on it is passed over); a folder of its
// name is not it.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	beside, onPath, folder := filepath.Join(dir, "bin"), filepath.Join(dir, "path"), filepath.Join(dir, "folder")
	for _, d := range []string{beside, onPath, filepath.Join(folder, ConchNats)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{beside, onPath} {
		if err := os.WriteFile(filepath.Join(d, ConchNats), []byte("#!/bin/sh\n"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", "relative"+string(os.PathListSeparator)+string(os.PathListSeparator)+filepath.Join(dir, "none")+string(os.PathListSeparator)+onPath+string(os.PathListSeparator)+beside)
	for self, want := range map[string]string{
		filepath.Join(beside, "conch"): filepath.Join(beside, ConchNats),
		filepath.Join(folder, "conch"): filepath.Join(onPath, ConchNats),
		"":                             filepath.Join(onPath, ConchNats),
	} {
		if got, err := Find(self, ConchNats); err != nil || got != want {
			t.Errorf("Find(%q) = %q, %v; want %q", self, got, err, want)
		}
	}
	t.Setenv("PATH", "")
	if got, err := Find(filepath.Join(folder, "conch"), ConchNats); err == nil {
		t.Errorf("Find with none beside and none on PATH = %q", got)
	}
}

func TestContains(t *testing.T) {
	for _, c := range []struct {
		b, s string
		want bool
	}{{"[backend]", "[backend]", true}, {"x\n[backend]\n", "[backend]", true}, {"[backend", "[backend]", false}, {"", "[backend]", false}, {"abc", "", true}} {
		if got := contains([]byte(c.b), c.s); got != c.want || got != strings.Contains(c.b, c.s) {
			t.Errorf("contains(%q, %q) = %v, want %v", c.b, c.s, got, c.want)
		}
	}
}

// FuzzFirstWord holds the hand-written scans to the standard library's.
func FuzzFirstWord(f *testing.F) {
	f.Add("--chat c_1 step run", "[backend]\nurl = 1")
	f.Add("-- backend join", "")
	f.Fuzz(func(t *testing.T, words, config string) {
		args := strings.Fields(words)
		want := ""
		for i := 0; i < len(args); i++ {
			if args[i] == "--" {
				break
			}
			if args[i] == "--chat" {
				i++
				continue
			}
			if !strings.HasPrefix(args[i], "-") {
				want = args[i]
				break
			}
		}
		if got := FirstWord(args); got != want {
			t.Errorf("FirstWord(%q) = %q, want %q", args, got, want)
		}
		if got := MayName([]byte(config)); got != strings.Contains(config, "[backend]") {
			t.Errorf("MayName(%q) = %v", config, got)
		}
	})
}
