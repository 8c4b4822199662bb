package store_test

import (
	"path/filepath"
	"testing"

	"github.com/conch-sh/conch/state/store"
	"github.com/conch-sh/conch/state/store/storetest"
)

func TestFiles(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return store.NewFiles(filepath.Join(t.TempDir(), "home"), nil, 0)
	})
}

func TestMem(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return store.NewMem() })
}
