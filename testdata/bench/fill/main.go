// Command fill writes a home for the benchmarks (internal/benchhome) and
// says what it wrote.
//
//	go run ./testdata/bench/fill -chats 50 -events 50000 DIR
//	go run ./testdata/bench/fill -chats 1000 DIR
//	go run ./testdata/bench/fill -chats 50 -peers 19 -goals 30 -claims 50 -messages 5 DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/conch-sh/conch/internal/benchhome"
)

func main() {
	o := benchhome.Options{Out: os.Stdout}
	flag.IntVar(&o.Chats, "chats", 50, "how many chats")
	flag.IntVar(&o.Events, "events", 0, "about how many events in their logs")
	flag.IntVar(&o.Peers, "peers", 0, "more chats working in c_1's folder, each changing a file")
	flag.IntVar(&o.Goals, "goals", 0, "goal changes on each of five of those peers")
	flag.IntVar(&o.Claims, "claims", 0, "live claims held by the peers")
	flag.IntVar(&o.Messages, "messages", 0, "messages from the peers waiting for c_1")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: fill [-chats N] [-events N] [-peers N -goals K -claims N -messages N] DIR")
		os.Exit(2)
	}
	if err := benchhome.Fill(flag.Arg(0), o); err != nil {
		fmt.Fprintln(os.Stderr, "fill:", err)
		os.Exit(1)
	}
}
