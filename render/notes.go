package render

import (
	"fmt"

	"github.com/conch-sh/conch/state"
)

// StopLine is what a chat hears when another chat stopped its reply.
func StopLine(n state.StopNotice) string {
	return fmt.Sprintf("%s stopped your last reply: %s", Named(n.ByTitle, n.By), Clean(n.Reason))
}
