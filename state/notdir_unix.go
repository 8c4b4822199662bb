//go:build unix

package state

import "syscall"

// errNotDir is ENOTDIR: a file where a folder belongs (doctor's to find,
// not the counters').
var errNotDir error = syscall.ENOTDIR
