//go:build unix

package state

import "syscall"

func notDirError() error { return syscall.ENOTDIR }
