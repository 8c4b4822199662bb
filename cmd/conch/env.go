//go:build !nats

package main

import (
	"github.com/conch-sh/conch/cli"
	// A command on a home on a backend is given over to conch-nats as
	// the process starts, before the rest of conch does.
	_ "github.com/conch-sh/conch/internal/handover/early"
)

// env is the process's environment. This conch does not link the NATS
// client (its start-up would cost every local command): a home on a
// backend is run by conch-nats, or by a conch built with -tags nats.
func env() cli.Env { return cli.System() }
