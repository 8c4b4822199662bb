//go:build !unix

package state

func canUse(p string, dir bool) error { return nil }
