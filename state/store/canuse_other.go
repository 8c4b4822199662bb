//go:build !unix

package store

func canUse(p string, dir bool) error { return nil }
