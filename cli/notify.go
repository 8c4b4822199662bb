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
message), across every conch process, on the wall clock (CONCH_NOW, which
a chat can set, does not move it). A notice says who and what kind:
titles, cleaned, and ids; never a message's words or a stop's reason.

The command runs with a fixed environment, the person's, never that of the
chat whose doing the notice is: HOME, USER and LOGNAME of your account,
XDG_RUNTIME_DIR and the session bus when they are there, PATH
/usr/local/bin:/usr/bin:/bin; then what [notify] env sets, as

  env = ["PATH=/opt/homebrew/bin:/usr/bin:/bin", "DISPLAY=:0"]

and CONCH_NOTIFY_KIND (needs-you, request, held, test), CONCH_NOTIFY_CHAT
and CONCH_NOTIFY_ID (the request or message). Its program is found on
that PATH. conch top rings the terminal bell for the same events.`

func newNotifyGroup(a *app) *cobra.Command {
	g := group("notify", "Being told when a chat needs you: [notify] command in config.toml")
	g.Long = notifyLong
	g.AddCommand(newNotifyTestCmd(a, nil))
	return g
}

// notifyTestOptions are conch notify test's words.
type notifyTestOptions struct {
	IO   *render.Printer
	Home homeRW
}

// newNotifyTestCmd is conch notify test; runF, when not nil, gets the
// checked options instead of the run (for tests).
func newNotifyTestCmd(a *app, runF func(*notifyTestOptions) error) *cobra.Command {
	o := &notifyTestOptions{}
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
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home = a.printer(), a.homeRW()
			return runNotifyTest(o)
		}),
	}
}

// runNotifyTest sends the test notice and waits for the command.
func runNotifyTest(o *notifyTestOptions) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	argv, err := o.Home.home.NotifyTest(ctx)
	if err != nil {
		return err
	}
	return o.IO.Value(render.NotifySentJSON{Command: argv, Sent: true}, render.NotifySent(argv))
}
