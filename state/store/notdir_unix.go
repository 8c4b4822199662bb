//go:build unix

package store

import "syscall"

// ErrNotDir is ENOTDIR: a file where a folder belongs (doctor's to find,
// not the counters').
var ErrNotDir error = syscall.ENOTDIR

// ErrIsDir is EISDIR: a folder where a record belongs.
var ErrIsDir error = syscall.EISDIR
