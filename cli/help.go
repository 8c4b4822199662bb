package cli

import (
	"embed"
	"strings"

	"github.com/spf13/cobra"
)

//go:embed topics/*.txt
var topics embed.FS

// helpTopics are the documents the binary carries beyond each command's
// help: conch help json, conch help integrations, conch help security.
func helpTopics() []*cobra.Command {
	var cmds []*cobra.Command
	for _, t := range []struct{ name, short string }{
		{"json", "The JSON every command prints with --json"},
		{"integrations", "Setting up Claude Code and Codex to report to conch"},
		{"security", "What conch guards against, what it does not, and the tests that hold it"},
	} {
		text, err := topics.ReadFile("topics/" + t.name + ".txt")
		if err != nil {
			panic(err) // the files are embedded: a missing one is a build mistake
		}
		cmds = append(cmds, &cobra.Command{
			Use:         t.name,
			Short:       t.short,
			Long:        strings.TrimRight(string(text), "\n"),
			Annotations: access(accessNone),
		})
	}
	return cmds
}
