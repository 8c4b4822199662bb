//go:build !unix

package store

import "errors"

// ErrNotDir stands for ENOTDIR: a file where a folder belongs.
var ErrNotDir = errors.New("not a directory")

// ErrIsDir stands for EISDIR: a folder where a record belongs.
var ErrIsDir = errors.New("is a directory")
