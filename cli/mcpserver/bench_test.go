package mcpserver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/conch-sh/conch/cli"
)

// BenchmarkToolCall: a tool call inside a running server, from the client's
// call to its answer (the in-memory transport), in a home of 50 chats: to
// set beside the whole command's figure in testdata/bench/run (chats list,
// 50 chats), which pays a process's start as well.
func BenchmarkToolCall(b *testing.B) {
	w := newWorld(b)
	for i := range 50 {
		w.conch("", "chat", "new", "--title", fmt.Sprintf("Chat %d", i+1), "--folder", w.folder)
	}
	cs := connect(b, w.env(map[string]string{"CONCH_CHAT": "c_1"}), "bench")
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"list_chats", nil},
		{"status", map[string]any{"id": "c_2"}},
		{"messages", nil},
	} {
		b.Run(tc.tool, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if r := call(b, cs, tc.tool, tc.args); r.err {
					b.Fatalf("%s: %s", tc.tool, r.words)
				}
			}
		})
	}
	b.Run("cli chats list (in process)", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if ans := cli.Call(cli.ActingAs(w.env(nil), "c_1"), []string{"chats", "list"}); ans.Code != 0 {
				b.Fatal(ans.Error)
			}
		}
	})
}

// BenchmarkServerStart: conch-mcp started as a harness starts it, from
// its exec to the answer to initialize, then closed.
func BenchmarkServerStart(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "conch-mcp")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/conch-sh/conch/cmd/conch-mcp").CombinedOutput(); err != nil {
		b.Fatalf("go build conch-mcp: %v\n%s", err, out)
	}
	home := filepath.Join(b.TempDir(), "home")
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	for b.Loop() {
		cmd := exec.Command(bin, "mcp")
		cmd.Env = append(os.Environ(), "CONCH_HOME="+home, "CONCH_CHAT=")
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			b.Fatal(err)
		}
		cs.Close()
	}
}
