//go:build !unix

package state

import "errors"

func notDirError() error { return errors.New("not a directory") }
