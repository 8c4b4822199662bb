package proc

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// detached is what starts a command in a process group of its own with
// no console, so that the person's Ctrl+C does not reach it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
}
