//go:build !unix && !windows

package store

import "os"

func openRead(name string) (*os.File, error) { return os.Open(name) }
