package cli

import (
	"testing"

	"github.com/conch-sh/conch/harness/install"
)

// conch install NAME's words reach its run as typed; --project with
// --user, or a --conch that is no program, never reach it.
func TestInstallOptions(t *testing.T) {
	for _, r := range install.Recipes {
		var got *installOptions
		cmd := newInstall(testApp(), r, func(o *installOptions) error { got = o; return nil })
		if err := parse(t, cmd, "--project", "--remove", "--conch", "/opt/my tools/conch"); err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		if got == nil || got.recipe != r || !got.project || got.user || !got.remove || got.conch != "/opt/my tools/conch" {
			t.Fatalf("%s: options %+v", r.Name, got)
		}
	}
	for _, args := range [][]string{
		{"--project", "--user"},
		{"--conch", " "},
		{"--conch", "con\nch"},
		{"extra"},
	} {
		ran := false
		cmd := newInstall(testApp(), install.Claude, func(*installOptions) error { ran = true; return nil })
		if err := parse(t, cmd, args...); !isUsage(err) || ran {
			t.Errorf("%q: %v (ran %v), want a usage error", args, err, ran)
		}
	}
	var got *installOptions
	parse(t, newInstall(testApp(), install.Codex, func(o *installOptions) error { got = o; return nil }))
	if got.conch != "conch" || got.project || got.remove {
		t.Fatalf("defaults: %+v", got)
	}
}
