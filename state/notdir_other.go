//go:build !unix

package state

import "errors"

// errNotDir stands for ENOTDIR: a file where a folder belongs.
var errNotDir = errors.New("not a directory")
