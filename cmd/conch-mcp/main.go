// Command conch-mcp is conch with its MCP server linked in (conch mcp):
// conch runs it in its place, so that plain conch does not pay the SDK's
// start-up. It links the backend's client too: a tool call runs in the
// server's own process, whatever home it is on.
package main

import (
	"os"

	"github.com/conch-sh/conch/cli"
	"github.com/conch-sh/conch/cli/mcpserver"
)

func main() { os.Exit(cli.Main(os.Args[1:], mcpserver.Env())) }
