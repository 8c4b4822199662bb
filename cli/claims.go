package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newClaims() *cobra.Command {
	return &cobra.Command{
		Use:   "claims",
		Short: "Every live claim the chat acting may see: whose, what, until when, why",
		Long: `Every live claim that the chat acting may see (the person sees all; one of
the person's own chats sees the claims of the person's chats; any other chat
none): whose, what (relative to the current folder when inside it), until
when, why (cleaned). A claim from a chat that read something from outside
is marked: the guard treats it as a note, never a denial.

Exit codes: 0 done, 3 no such chat.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessRead),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			return a.view(func(tx *state.View) error {
				live, err := tx.Claims(a.actor())
				if err != nil {
					return err
				}
				return a.printer().Value(render.ClaimsOut{Claims: render.ClaimsJSON(live, a.chat)},
					render.Claims(live, a.chat, a.env.Cwd, a.userHome()))
			})
		}),
	}
}
