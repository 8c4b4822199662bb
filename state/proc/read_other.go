//go:build !unix

package proc

import "os"

func read(name string) ([]byte, error) { return os.ReadFile(name) }
