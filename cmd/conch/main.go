// Command conch lets the AI chats one person runs side by side know about
// each other. All of it lives in package cli.
package main

import (
	"os"

	"github.com/conch-sh/conch/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], env())) }
