// Package hub runs a NATS server with JetStream for conch: what `conch-hub`
// runs for a person who has no server, and what the tests start on
// 127.0.0.1. It is never linked into conch itself (the server is a large
// program; conch only talks to one).
package hub

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// MaxPayload lets one message hold the largest record conch writes
// (store.MaxRecord, 4 MiB) and its headers; a server's default is 1 MiB.
const MaxPayload = 8 << 20

// Options say where the server listens and keeps its streams.
type Options struct {
	Listen string // host:port; port 0 takes a free one
	Store  string // the JetStream folder
	// SyncAlways syncs every write to disk before it is acknowledged, so a
	// power cut loses nothing a command was told was written.
	SyncAlways bool
	Logs       bool // the server's own log on standard error
}

// Server is a running hub.
type Server struct {
	*server.Server
	URL string
}

// Start starts the server and waits until it takes connections.
func Start(o Options) (*Server, error) {
	host, port, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("--listen %q: %v", o.Listen, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 0 || p > 65535 {
		return nil, fmt.Errorf("--listen %q: the port is not a number from 0 to 65535", o.Listen)
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	opts := &server.Options{
		ServerName: "conch-hub",
		Host:       host,
		Port:       p,
		JetStream:  true,
		StoreDir:   o.Store,
		MaxPayload: MaxPayload,
		SyncAlways: o.SyncAlways,
		NoSigs:     true,
		NoLog:      !o.Logs,
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, err
	}
	if o.Logs {
		s.ConfigureLogger()
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("the server on %s did not start", o.Listen)
	}
	return &Server{Server: s, URL: s.ClientURL()}, nil
}
