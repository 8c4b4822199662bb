//go:build !windows

package cli

import (
	"os"
	"syscall"
)

// topSignals are what conch top hears: the ones that end it, and a
// terminal's new size.
var topSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGWINCH}

// resized is the signal of a terminal's new size.
var resized os.Signal = syscall.SIGWINCH
