//go:build !windows

package proc

import "syscall"

// detached is what starts a command in a session of its own.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
