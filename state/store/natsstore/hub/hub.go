// Package hub runs a NATS server with JetStream for conch: what `conch-hub`
// runs for a person who has no server, and what the tests start on
// 127.0.0.1. It is never linked into conch itself (the server is a large
// program; conch only talks to one).
package hub

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/conch-sh/conch/state/store/natsstore/join"
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
	// Auth, when set, is the hub's credentials: computers connect only
	// with its user's key, over TLS. A hub that listens beyond loopback
	// must have it.
	Auth *Auth
	// Name is the server's name, its own in a cluster; "": conch-hub.
	Name string
	// Cluster, when set, makes the server one node of a cluster.
	Cluster *Cluster
}

// Cluster says which cluster a node is in and how it reaches the others.
type Cluster struct {
	Name   string   // the cluster's name, the same on every node
	Listen string   // host:port of this node's routes
	Routes []string // host:port (or nats-route://host:port) of the others' routes
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
	if o.Auth == nil && !join.Loopback(host) {
		return nil, fmt.Errorf("--listen %s is beyond this computer: a hub there takes credentials and TLS", o.Listen)
	}
	if o.Name == "" {
		o.Name = "conch-hub"
	}
	opts := &server.Options{
		ServerName: o.Name,
		Host:       host,
		Port:       p,
		JetStream:  true,
		StoreDir:   o.Store,
		MaxPayload: MaxPayload,
		SyncAlways: o.SyncAlways,
		NoSigs:     true,
		NoLog:      !o.Logs,
	}
	if o.Auth != nil {
		opts.Nkeys = []*server.NkeyUser{{Nkey: o.Auth.UserPub}}
		opts.TLSConfig = o.Auth.serverTLS()
		opts.TLS = true
		opts.TLSTimeout = 5
	}
	if o.Cluster != nil {
		if err := cluster(opts, o); err != nil {
			return nil, err
		}
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
	return &Server{Server: s, URL: s.ClientURL()}, nil // tls:// with Auth
}

// cluster sets the routes of a node: their port, the cluster's secret
// and, with Auth, TLS both ways with the cluster's CA.
func cluster(opts *server.Options, o Options) error {
	c := o.Cluster
	host, port, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return fmt.Errorf("--cluster-listen %q: %v", c.Listen, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p <= 0 || p > 65535 {
		return fmt.Errorf("--cluster-listen %q: the port is not a number from 1 to 65535", c.Listen)
	}
	if o.Auth == nil && !join.Loopback(host) {
		return fmt.Errorf("--cluster-listen %s is beyond this computer: a cluster there takes credentials and TLS", c.Listen)
	}
	if c.Name == "" || strings.ContainsAny(c.Name, " .*>") {
		return fmt.Errorf("--cluster %q: a name of letters, digits, - and _", c.Name)
	}
	opts.Cluster = server.ClusterOpts{Name: c.Name, Host: host, Port: p, PoolSize: -1}
	if o.Auth != nil {
		opts.Cluster.Username, opts.Cluster.Password = "conch", o.Auth.Route
		opts.Cluster.TLSConfig = o.Auth.routeTLS()
		opts.Cluster.TLSTimeout = 5
	}
	for _, r := range c.Routes {
		if !strings.Contains(r, "://") {
			r = "nats-route://" + r
		}
		u, err := url.Parse(r)
		if err != nil || u.Host == "" {
			return fmt.Errorf("--routes %q: not host:port", r)
		}
		if o.Auth != nil {
			u.User = url.UserPassword("conch", o.Auth.Route)
		}
		opts.Routes = append(opts.Routes, u)
	}
	return nil
}
