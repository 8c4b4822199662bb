package cli

import (
	_ "embed" // the help topics
	"strings"

	"github.com/spf13/cobra"
)

// The topics are strings in the binary's read-only data: embedding them
// as an embed.FS would copy each into the heap at every start of every
// command, to build help that is almost never shown.
var (
	//go:embed topics/json.txt
	topicJSON string
	//go:embed topics/integrations.txt
	topicIntegrations string
	//go:embed topics/security.txt
	topicSecurity string
	//go:embed topics/person.txt
	topicPerson string
	//go:embed topics/backend.txt
	topicBackend string
	//go:embed topics/reliability.txt
	topicReliability string
)

// helpTopics are the documents the binary carries beyond each command's
// help: conch help json, conch help integrations, conch help security,
// conch help person, conch help reliability.
func helpTopics() []*cobra.Command {
	var cmds []*cobra.Command
	for _, t := range []struct{ name, short, text string }{
		{"json", "The JSON every command prints with --json", topicJSON},
		{"integrations", "Setting up {{Harnesses}} to report to conch", topicIntegrations},
		{"security", "What conch guards against, what it does not, and the tests that hold it", topicSecurity},
		{"person", "The person's side: conch top, and being told when a chat needs you ([notify])", topicPerson},
		{"reliability", "What conch promises across kills, crashes and failing disks, and the tests that hold it", topicReliability},
	} {
		cmds = append(cmds, &cobra.Command{
			Use:         t.name,
			Short:       t.short,
			Long:        strings.TrimRight(t.text, "\n"),
			Annotations: access(accessNone),
		})
	}
	return cmds
}
