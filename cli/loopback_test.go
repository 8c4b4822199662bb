package cli

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// TestDialLoopback: a wake's prompt reaches a server on this computer's
// loopback, by address or as localhost, and never a host beyond it.
func TestDialLoopback(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			line, _ := bufio.NewReader(c).ReadString('\n')
			_, _ = io.WriteString(c, "got "+line)
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port} {
		conn, err := dialLoopback(host, 2*time.Second)
		if err != nil {
			t.Fatalf("dial %s: %v", host, err)
		}
		if _, err := io.WriteString(conn, "hello\n"); err != nil {
			t.Fatal(err)
		}
		got, err := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if err != nil || got != "got hello\n" {
			t.Fatalf("dial %s: read %q, %v", host, got, err)
		}
	}
	for _, host := range []string{"10.0.0.1:80", "example.com:80", "127.0.0.1", "127.0.0.1:0"} {
		if _, err := dialLoopback(host, time.Second); err == nil {
			t.Errorf("dial %s: connected, want refused", host)
		} else if strings.Contains(err.Error(), "connect 10.") {
			t.Errorf("dial %s tried the network: %v", host, err)
		}
	}
}
