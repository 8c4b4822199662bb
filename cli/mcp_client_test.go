package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpCall is a small MCP client for the scripts: mcp-call [-json] TOOL
// [ARGUMENTS] starts conch mcp (with the script's environment), calls the
// tool with the JSON object ARGUMENTS, and prints the answer's words (with
// -json, its structured content after them). A tool error's words go to
// standard error, and it exits with the code the error says.
func mcpCall() {
	args := os.Args[1:]
	asJSON := len(args) > 0 && args[0] == "-json"
	if asJSON {
		args = args[1:]
	}
	if len(args) < 1 || len(args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: mcp-call [-json] TOOL [ARGUMENTS]")
		os.Exit(2)
	}
	var params map[string]any
	if len(args) == 2 {
		if err := json.Unmarshal([]byte(args[1]), &params); err != nil {
			fmt.Fprintf(os.Stderr, "mcp-call: the arguments: %v\n", err)
			os.Exit(2)
		}
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "script-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("conch", "mcp")}, nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcp-call: %v\n", err)
		os.Exit(1)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: args[0], Arguments: params})
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcp-call: %v\n", err)
		os.Exit(1)
	}
	var words strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			words.WriteString(t.Text)
		}
	}
	out := os.Stdout
	if res.IsError {
		out = os.Stderr
	}
	fmt.Fprint(out, words.String())
	if asJSON && res.StructuredContent != nil {
		data, _ := json.MarshalIndent(res.StructuredContent, "", "  ")
		fmt.Fprintf(out, "%s\n", data)
	}
	if res.IsError {
		var e struct {
			Code int `json:"code"`
		}
		data, _ := json.Marshal(res.StructuredContent)
		if json.Unmarshal(data, &e) != nil || e.Code == 0 {
			e.Code = 1
		}
		cs.Close()
		os.Exit(e.Code)
	}
}
