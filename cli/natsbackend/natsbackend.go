// Package natsbackend gives cli a home on NATS JetStream
// (state/store/natsstore). It is linked into conch-nats and the tests,
// never into conch: the NATS client's start-up would cost every local
// command.
package natsbackend

import (
	"github.com/conch-sh/conch/cli"
	"github.com/conch-sh/conch/state/store/natsstore"
)

// Open is a cli.OpenBackend.
func Open(c cli.BackendConfig) (cli.BackendStore, error) {
	s, err := natsstore.Open(natsstore.Options{URL: c.URL, Home: c.Home, Creds: c.Creds, TLSCA: c.TLSCA, Replicas: c.Replicas, Timeout: c.Timeout, Holder: c.Holder})
	if err != nil {
		return nil, err
	}
	return store{s}, nil
}

type store struct{ *natsstore.Store }

func (s store) Health() (cli.BackendHealth, error) {
	h, err := s.Store.Health()
	return cli.BackendHealth{RTT: h.RTT, Summary: h.Summary, Problems: h.Problems, Authenticated: h.Authenticated, Encrypted: h.Encrypted}, err
}

// Env is the process's cli.Env with the backend.
func Env() cli.Env {
	env := cli.System()
	env.OpenBackend = Open
	return env
}
