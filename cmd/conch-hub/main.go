// Command conch-hub runs a NATS server with JetStream for a person who has
// none: the shared home of conch on several computers ([backend] url in
// each one's config.toml). It runs in the foreground until interrupted.
// It is its own binary: the server never weighs on conch's start-up.
package main

import (
	"os"

	"github.com/conch-sh/conch/state/store/natsstore/hub"
)

func main() { os.Exit(hub.Main(os.Args[1:], os.Stdout, os.Stderr, os.Getenv)) }
