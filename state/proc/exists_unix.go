//go:build unix

package proc

import (
	"errors"
	"syscall"
)

// Exists says whether a process with that pid exists: one system call,
// without the start time that tells a pid reused by another process.
func Exists(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
