// Command conch-nats is conch with a home on NATS JetStream ([backend] in
// config.toml): conch runs it in its place when the home names a backend.
package main

import (
	"os"

	"github.com/conch-sh/conch/cli"
	"github.com/conch-sh/conch/cli/natsbackend"
)

func main() { os.Exit(cli.Main(os.Args[1:], natsbackend.Env())) }
