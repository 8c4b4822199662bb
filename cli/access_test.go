package cli

import (
	"testing"

	"github.com/spf13/cobra"
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
	walk(a.newRoot())
}
