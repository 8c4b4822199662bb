//go:build unix

package early

import (
	"os"
	"syscall"

	"github.com/conch-sh/conch/internal/handover"
)

func init() {
	args := os.Args[1:]
	if !handover.Wanted(args, os.Getenv) {
		return
	}
	self, _ := os.Executable()
	exe, err := handover.Find(self, handover.ConchNats)
	if err != nil {
		return
	}
	// Only a failure returns: cli.Main then tries again, and says why.
	_ = syscall.Exec(exe, append([]string{exe}, args...), os.Environ())
}
