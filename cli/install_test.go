package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/conch-sh/conch/harness"
)

// conch install NAME's words reach its run as typed; --project with
// --user, or a --conch that is no program, never reach it.
func TestInstallOptions(t *testing.T) {
	for _, h := range harness.Adapters {
		var got *installOptions
		cmd := newInstall(testApp(), h, func(o *installOptions) error { got = o; return nil })
		if err := parse(t, cmd, "--project", "--remove", "--conch", "/opt/my tools/conch"); err != nil {
			t.Fatalf("%s: %v", h.Name, err)
		}
		if got == nil || got.recipe != h.Install || !got.project || got.user || !got.remove || got.conch != "/opt/my tools/conch" {
			t.Fatalf("%s: options %+v", h.Name, got)
		}
	}
	for _, args := range [][]string{
		{"--project", "--user"},
		{"--conch", " "},
		{"--conch", "con\nch"},
		{"extra"},
	} {
		ran := false
		cmd := newInstall(testApp(), harness.Adapters[0], func(*installOptions) error { ran = true; return nil })
		if err := parse(t, cmd, args...); !isUsage(err) || ran {
			t.Errorf("%q: %v (ran %v), want a usage error", args, err, ran)
		}
	}
	var got *installOptions
	parse(t, newInstall(testApp(), harness.Adapters[1], func(o *installOptions) error { got = o; return nil }))
	if got.conch != "conch" || got.project || got.remove {
		t.Fatalf("defaults: %+v", got)
	}
}

// TestEveryAdapterInstalls: every adapter has its install recipe, and
// conch install lists exactly the adapters (and mcp), each conch install
// NAME its adapter's recipe, with its help.
func TestEveryAdapterInstalls(t *testing.T) {
	var want []string
	for _, h := range harness.Adapters {
		if h.Install == nil {
			t.Errorf("adapter %q has no install recipe", h.Name)
			continue
		}
		want = append(want, h.Name)
	}
	want = append(want, "mcp")
	var got []string
	for _, cmd := range newInstallCommands(testApp()) {
		got = append(got, cmd.Name())
		if h := harness.Of(cmd.Name()); h != nil && (cmd.Short != h.Install.Short || !strings.HasPrefix(cmd.Long, strings.SplitN(h.Install.Long, "\n", 2)[0])) {
			t.Errorf("conch install %s: its help is not its adapter's recipe's", cmd.Name())
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("conch install lists %q, want the adapters and mcp, %q", got, want)
	}
}
