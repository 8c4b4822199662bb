//go:build nats

package main

import (
	"github.com/conch-sh/conch/cli"
	"github.com/conch-sh/conch/cli/natsbackend"
)

// env is the process's environment with the backend linked in: the conch
// of a computer whose home is on a NATS server (go install -tags nats).
func env() cli.Env { return natsbackend.Env() }
