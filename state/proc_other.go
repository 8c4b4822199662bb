//go:build !linux

package state

import (
	"errors"
	"syscall"
)

func procStart(pid int) (uint64, bool) {
	if pid <= 0 {
		return 0, false
	}
	err := syscall.Kill(pid, 0)
	return 0, err == nil || errors.Is(err, syscall.EPERM)
}

// HarnessPID is the process that runs a chat; elsewhere than Linux, the
// parent itself.
func HarnessPID(ppid int) int { return ppid }

func procExists(pid int) bool {
	_, ok := procStart(pid)
	return ok
}
