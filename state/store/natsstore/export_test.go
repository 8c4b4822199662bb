package natsstore

import (
	"testing"

	"github.com/conch-sh/conch/state/store/storetest"
)

// OpenT opens home on the server at url for a test, closed at its end.
func OpenT(t *testing.T, url, home string) *Store {
	t.Helper()
	s, err := Open(Options{URL: url, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

var open, commit = OpenT, storetest.Commit
