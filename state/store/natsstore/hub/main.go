package hub

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/conch-sh/conch/state/store/natsstore/join"
)

// Main is conch-hub: it runs a hub in the foreground until SIGINT or
// SIGTERM, and returns its exit code.
func Main(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fl := flag.NewFlagSet("conch-hub", flag.ContinueOnError)
	fl.SetOutput(stderr)
	listen := fl.String("listen", "127.0.0.1:4222", "the address to listen on (0.0.0.0:4222 for other computers: then with credentials and TLS)")
	dir := fl.String("store", "", "the folder of its streams (default CONCH_HOME/hub)")
	authDir := fl.String("auth", "", "the folder of its credentials and CA (default STORE/auth; the nodes of a cluster each have a copy of one); named, the hub takes credentials and TLS on loopback too")
	hosts := fl.String("host", "", "the names (comma-separated) the other computers reach it by, for its certificate and the join line (default: this computer's name)")
	name := fl.String("name", "", "the server's name, its own in a cluster (default: this computer's name in a cluster, else conch-hub)")
	clusterName := fl.String("cluster", "", "the cluster this node is one of (the same name on every node)")
	clusterListen := fl.String("cluster-listen", "", "host:port of this node's routes (with --cluster)")
	routes := fl.String("routes", "", "host:port (comma-separated) of the other nodes' routes (with --cluster)")
	logs := fl.Bool("log", false, "print the server's own log")
	sync := fl.Bool("sync", false, "sync every write to disk before acknowledging it, so a power cut of this computer loses nothing acknowledged (a step then costs about twice as much); default: the server's own, writes reach the disk within 2 minutes, and a restart or a kill of the hub loses nothing")
	fl.Usage = func() {
		fmt.Fprintf(stderr, "usage: conch-hub [--listen ADDR] [--store DIR] [--host NAMES] [--sync] [--log]\n"+
			"       [--cluster NAME --cluster-listen ADDR --routes ADDR,... --name NODE --auth DIR]\n\n"+
			"Runs a NATS server with JetStream, in the foreground, for conch's shared home.\n"+
			"Beyond loopback it takes credentials and TLS, made on its first start; it\n"+
			"prints the `conch backend join` line each computer runs to join it.\n\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	fail := func(code int, f string, a ...any) int {
		fmt.Fprintf(stderr, "conch-hub: "+f+"\n", a...)
		return code
	}
	if fl.NArg() > 0 {
		return fail(2, "takes no arguments, not %q", fl.Arg(0))
	}
	if *clusterName == "" && (*clusterListen != "" || *routes != "") {
		return fail(2, "--cluster-listen and --routes are a cluster's: name it with --cluster")
	}
	if *clusterName != "" && *clusterListen == "" {
		return fail(2, "--cluster takes --cluster-listen, the address of this node's routes")
	}
	if *dir == "" {
		home := getenv("CONCH_HOME")
		if home == "" {
			h, err := os.UserHomeDir()
			if err != nil {
				return fail(1, "no --store, no CONCH_HOME and no home folder: %v", err)
			}
			home = filepath.Join(h, ".conch")
		}
		*dir = filepath.Join(home, "hub")
	}
	if err := os.MkdirAll(*dir, 0o700); err != nil {
		return fail(1, "%v", err)
	}
	host, port, err := net.SplitHostPort(*listen)
	if err != nil {
		return fail(2, "--listen %q: %v", *listen, err)
	}
	names := join.Split(*hosts)
	me, _ := os.Hostname()
	o := Options{Listen: *listen, Store: *dir, SyncAlways: *sync, Logs: *logs, Name: *name}
	if *clusterName != "" {
		o.Cluster = &Cluster{Name: *clusterName, Listen: *clusterListen, Routes: join.Split(*routes)}
		if o.Name == "" {
			o.Name = me
		}
	}
	routesHost, _, _ := net.SplitHostPort(*clusterListen)
	secure := *authDir != "" || !join.Loopback(host) || o.Cluster != nil && !join.Loopback(routesHost)
	if secure {
		if *authDir == "" {
			*authDir = filepath.Join(*dir, "auth")
		}
		if o.Auth, err = LoadAuth(*authDir, *dir, Hosts(host, names)); err != nil {
			return fail(1, "credentials in %s: %v", *authDir, err)
		}
	}
	s, err := Start(o)
	if err != nil {
		return fail(1, "%v", err)
	}
	fmt.Fprintf(stdout, "conch hub: %s (streams in %s); stop it with Ctrl-C\n", s.URL, *dir)
	if o.Auth != nil {
		reach := host
		switch {
		case len(names) > 0:
			reach = names[0]
		case net.ParseIP(host) != nil && net.ParseIP(host).IsUnspecified() && me != "":
			reach = me
		}
		if p := s.Addr().(*net.TCPAddr).Port; port == "0" {
			port = strconv.Itoa(p)
		}
		fmt.Fprintf(stdout, "on each computer to join (this one too), run:\n  conch backend join tls://%s %s\n", net.JoinHostPort(reach, port), o.Auth.Token())
		if o.Cluster != nil {
			fmt.Fprintf(stdout, "(in a cluster, name every node, as tls://%s,tls://NODE2:PORT,...: the same line works with any node's URLs)\n", net.JoinHostPort(reach, port))
		}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	s.Shutdown()
	s.WaitForShutdown()
	return 0
}
