// Package early gives a plain conch's command over to conch-nats as the
// process starts (package handover), when the home names a backend: its
// init runs once the few packages it stands on have started, before
// cobra, the domain and the rest of conch, whose start-up the command
// would not use. Only cmd/conch, built without the NATS client, imports
// it. Where conch-nats cannot be run, nothing happens here, and cli.Main
// says why.
package early
