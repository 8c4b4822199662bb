package cli

import (
	"os"
	"syscall"
)

// topSignals are what conch top hears: the ones that end it. Windows
// sends no signal when a console's size changes: the next second's
// drawing, which asks the size, follows it.
var topSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// resized is the signal of a terminal's new size: none.
var resized os.Signal
