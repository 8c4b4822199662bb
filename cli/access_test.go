package cli

import (
	"slices"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestEveryCommandDeclaresAccess holds the command tree to its rule: every
// command says whether it opens the home not at all, to read, or to write.
func TestEveryCommandDeclaresAccess(t *testing.T) {
	a := &app{env: Env{Getenv: func(string) string { return "" }}}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		switch c.Annotations["access"] {
		case accessNone, accessRead, accessWrite:
		default:
			if c.Name() != "help" {
				t.Errorf("%s declares no access (none, read or write)", c.CommandPath())
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(a.newRoot(nil))
}

// TestHotCommandsMatchTheWholeTree: a hot command built alone is the same
// command, with the same subcommands and flags, as in the whole tree.
func TestHotCommandsMatchTheWholeTree(t *testing.T) {
	a := &app{env: Env{Getenv: func(string) string { return "" }}}
	whole := a.newRoot(nil)
	shape := func(c *cobra.Command) []string {
		var out []string
		var walk func(c *cobra.Command)
		walk = func(c *cobra.Command) {
			out = append(out, c.CommandPath()+" "+c.Annotations["access"])
			c.Flags().VisitAll(func(f *pflag.Flag) { out = append(out, c.CommandPath()+" --"+f.Name) })
			for _, sub := range c.Commands() {
				walk(sub)
			}
		}
		walk(c)
		return out
	}
	for name := range a.hotCommands() {
		lazy := a.newRoot([]string{"--chat", "c_1", name})
		var got, want *cobra.Command
		for _, c := range lazy.Commands() {
			if c.Name() == name {
				got = c
			}
		}
		for _, c := range whole.Commands() {
			if c.Name() == name {
				want = c
			}
		}
		if got == nil || want == nil {
			t.Fatalf("%s: built alone %v, in the whole tree %v", name, got != nil, want != nil)
		}
		if g, w := shape(got), shape(want); !slices.Equal(g, w) {
			t.Errorf("%s built alone differs from the whole tree:\n%v\n%v", name, g, w)
		}
	}
}
