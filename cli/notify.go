package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
)

const notifyLong = `Being told when a chat needs you. In CONCH_HOME/config.toml:

  [notify]
  command = ["notify-send", "conch"]

Any program will do; the sentence is its last argument. It runs detached,
once per event that needs the person: a chat now needs you (its status set
to needs-you, a harness's permission or idle prompt), a stop waits for your
OK (conch confirm), a message is held (conch message pass). Never more than
one notice a chat a minute, counted for the chat whose doing it is (the one
that needs you, the one asking to stop another, the sender of a held
message), across every conch process. A notice says who and what kind:
titles, cleaned, and ids; never a message's words or a stop's reason.

The command runs with conch's environment less CONCH_CHAT, and with
CONCH_NOTIFY_KIND (needs-you, request, held, test), CONCH_NOTIFY_CHAT and
CONCH_NOTIFY_ID (the request or message) set. conch top rings the terminal
bell for the same events.`

func (a *app) newNotifyGroup() *cobra.Command {
	g := group("notify", "Being told when a chat needs you: [notify] command in config.toml")
	g.Long = notifyLong
	g.AddCommand(a.newNotifyTest())
	return g
}

func (a *app) newNotifyTest() *cobra.Command {
	return &cobra.Command{
		Use:   "test",
		Short: "Send one test notice through the [notify] command",
		Long: `Send one test notice through the [notify] command of config.toml, and wait
for the command (at most 10 s), so that a setup that does not work says why.

` + notifyLong + `

Exit codes: 0 sent, 1 the command failed, 2 no [notify] command is set.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessRead),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			argv, err := a.home.NotifyTest(ctx)
			if err != nil {
				return err
			}
			return a.printer().Value(render.NotifySentJSON{Command: argv, Sent: true}, render.NotifySent(argv))
		}),
	}
}
