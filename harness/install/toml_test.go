package install

import (
	"strings"
	"testing"
)

// The TOML edits take out exactly their lines.
func TestTOMLEdits(t *testing.T) {
	text := "# mine\nmodel = \"o3\"\nnotify = [\n  \"conch\", \"hook\", \"codex\",\n]\n[hooks.state.\"k\"]\ntrusted = true\n[tui]\nx = 1\n"
	out, ok := DropTopKey(text, "notify")
	if !ok || out != "# mine\nmodel = \"o3\"\n[hooks.state.\"k\"]\ntrusted = true\n[tui]\nx = 1\n" {
		t.Fatalf("DropTopKey: %v %q", ok, out)
	}
	if _, ok := DropTopKey("[tui]\nnotify = []\n", "notify"); ok {
		t.Fatal("a table's key is not top-level")
	}
	out, n := DropTables(text, []string{`[hooks.state."k"]`})
	if n != 1 || strings.Contains(out, "trusted") || !strings.Contains(out, "[tui]\nx = 1\n") {
		t.Fatalf("DropTables: %d %q", n, out)
	}
}

// Whatever a person's config.toml holds, conch's notify line put at its
// top comes out again leaving the file byte for byte as it was, and a
// notify line taken out leaves TOML without one.
func FuzzDropTopKey(f *testing.F) {
	f.Add("model = \"o3\"\n[tui]\nx = 1\n")
	f.Add("# notify = 1\nnotify_x = 2\n")
	f.Add("notify = [\n  \"say\",\n  \"done\",\n]\n[features]\nhooks = true\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		conf, err := DecodeTOML(text)
		if err != nil {
			return
		}
		if _, has := conf["notify"]; !has {
			in := "notify = [\"conch\", \"hook\", \"codex\"]  # conch: each turn's end\n" + text
			if CheckTOML(in) != nil {
				return // a file that ends inside a multi-line value, say
			}
			out, ok := DropTopKey(in, "notify")
			if !ok || out != text {
				t.Fatalf("put in and taken out: %v %q, want %q", ok, out, text)
			}
			return
		}
		out, ok := DropTopKey(text, "notify")
		if !ok {
			return // not a line conch can take out (an inline table's key, say): refused
		}
		left, err := DecodeTOML(out)
		if err != nil {
			t.Fatalf("taken out, not TOML (%v): %q", err, out)
		}
		if _, still := left["notify"]; still {
			t.Fatalf("taken out, notify still there: %q", out)
		}
	})
}
