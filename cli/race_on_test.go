//go:build race

package cli_test

// raceEnabled: every conch the tests run is the race-instrumented test
// binary, many times slower; the stress and kill tests do less.
const raceEnabled = true
