package cli_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/conch-sh/conch/cli"
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

// conch mcp hands the server the harness's environment as it is (the
// chat is worked out at each call); --chat, when given, names the chat
// and hides the session variables, and never comes from them.
func TestMcpChatFlag(t *testing.T) {
	vars := map[string]string{"CONCH_CHAT": "c_1", "CLAUDE_CODE_SESSION_ID": "S1", "CONCH_HOME": t.TempDir()}
	serve := func(args ...string) (chat, session string) {
		var served cli.Env
		code := cli.Main(args, cli.Env{
			Out: io.Discard, Err: io.Discard, Getenv: func(k string) string { return vars[k] }, Now: time.Now,
			ServeMCP: func(e cli.Env) error { served = e; return nil },
		})
		if code != 0 || served.Getenv == nil {
			t.Fatalf("conch %v: exit %d, served %v", args, code, served.Getenv != nil)
		}
		return served.Getenv("CONCH_CHAT"), served.Getenv("CLAUDE_CODE_SESSION_ID")
	}
	if chat, session := serve("mcp"); chat != "c_1" || session != "S1" {
		t.Errorf("conch mcp: CONCH_CHAT %q, session %q; want the harness's", chat, session)
	}
	if chat, session := serve("mcp", "--chat", "c_3"); chat != "c_3" || session != "" {
		t.Errorf("conch mcp --chat c_3: CONCH_CHAT %q, session %q; want c_3 and none", chat, session)
	}
}
