//go:build !linux

package proc

import (
	"errors"
	"syscall"
)

// Start is whether process pid exists (no start time elsewhere than Linux).
func Start(pid int) (uint64, bool) {
	if pid <= 0 {
		return 0, false
	}
	err := syscall.Kill(pid, 0)
	return 0, err == nil || errors.Is(err, syscall.EPERM)
}

// HarnessPID is the process that runs a chat; elsewhere than Linux, the
// parent itself.
func HarnessPID(ppid int) int { return ppid }

// Exists says whether a process with that pid exists.
func Exists(pid int) bool {
	_, ok := Start(pid)
	return ok
}
