package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestConchRunsConchMCP (issue 28): plain conch does not link the MCP SDK
// (its packages do work at start-up); conch mcp runs conch-mcp beside it,
// which serves the tools; without conch-mcp it says so in one line, exit 1.
func TestConchRunsConchMCP(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the real binaries are not built")
	}
	out, err := exec.Command("go", "list", "-deps", "../cmd/conch").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"modelcontextprotocol", "jsonschema", "yosida95"} {
		if strings.Contains(string(out), pkg) {
			t.Errorf("conch links %s", pkg)
		}
	}
	dir := t.TempDir()
	for _, b := range []string{"conch", "conch-mcp"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "bin", b), "../cmd/"+b).CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", b, err, out)
		}
	}
	home := filepath.Join(dir, "home")
	cmd := exec.Command(filepath.Join(dir, "bin", "conch"), "mcp")
	cmd.Env = append(conchEnv(home, ""), "PATH=/usr/bin:/bin")
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_chats"})
	cs.Close()
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "Checked on your other chats") {
		t.Fatalf("list_chats through conch mcp: %v %+v", err, res)
	}

	if err := os.Remove(filepath.Join(dir, "bin", "conch-mcp")); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(filepath.Join(dir, "bin", "conch"), "mcp")
	cmd.Env = append(conchEnv(home, ""), "PATH=/usr/bin:/bin")
	var errb strings.Builder
	cmd.Stderr = &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), "conch-mcp cannot be run") {
		t.Errorf("conch mcp without conch-mcp: %v: %q", err, errb.String())
	}
}
