// Command conch-hub runs a NATS server with JetStream for a person who has
// none: the shared home of conch on several computers ([backend] url in
// each one's config.toml). It runs in the foreground until interrupted.
// It is its own binary: the server never weighs on conch's start-up.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/conch-sh/conch/state/store/natsstore/hub"
)

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	fl := flag.NewFlagSet("conch-hub", flag.ContinueOnError)
	listen := fl.String("listen", "127.0.0.1:4222", "the address to listen on (0.0.0.0:4222 for other computers)")
	dir := fl.String("store", "", "the folder of its streams (default CONCH_HOME/hub)")
	logs := fl.Bool("log", false, "print the server's own log")
	sync := fl.Bool("sync", false, "sync every write to disk before acknowledging it, so a power cut of this computer loses nothing acknowledged (a step then costs about twice as much); default: the server's own, writes reach the disk within 2 minutes, and a restart or a kill of the hub loses nothing")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: conch-hub [--listen ADDR] [--store DIR] [--sync] [--log]\n\n"+
			"Runs a NATS server with JetStream, in the foreground, for conch's shared home.\n"+
			"Each computer names it in CONCH_HOME/config.toml:\n\n  [backend]\n  url = \"nats://HOST:4222\"\n\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "conch-hub: takes no arguments, not %q\n", fl.Arg(0))
		return 2
	}
	if *dir == "" {
		home := os.Getenv("CONCH_HOME")
		if home == "" {
			h, err := os.UserHomeDir()
			if err != nil {
				fmt.Fprintf(os.Stderr, "conch-hub: no --store, no CONCH_HOME and no home folder: %v\n", err)
				return 1
			}
			home = filepath.Join(h, ".conch")
		}
		*dir = filepath.Join(home, "hub")
	}
	if err := os.MkdirAll(*dir, 0o700); err != nil {
		fmt.Fprintf(os.Stderr, "conch-hub: %v\n", err)
		return 1
	}
	s, err := hub.Start(hub.Options{Listen: *listen, Store: *dir, SyncAlways: *sync, Logs: *logs})
	if err != nil {
		fmt.Fprintf(os.Stderr, "conch-hub: %v\n", err)
		return 1
	}
	fmt.Printf("conch hub: %s (streams in %s); stop it with Ctrl-C\n", s.URL, *dir)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	s.Shutdown()
	s.WaitForShutdown()
	return 0
}
