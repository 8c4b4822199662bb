//go:build !unix

package cli

var execProcess func(path string, argv, env []string) error // none: conch-nats is run by hand
