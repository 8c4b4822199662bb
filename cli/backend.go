package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
	"github.com/conch-sh/conch/state/store/natsstore"
)

// backend is the store config.toml's [backend] names (CONCH_BACKEND_URL
// overrides its url; CONCH_BACKEND_HOME its home, for tests that share a
// server), or nil for the local files.
func (a *app) backend(cfg state.Config) (store.Store, error) {
	url := a.env.Getenv("CONCH_BACKEND_URL")
	if url == "" {
		url = cfg.Backend.URL
	}
	if url == "" {
		return nil, nil
	}
	home := a.env.Getenv("CONCH_BACKEND_HOME")
	if home == "" {
		home = cfg.Backend.Home
	}
	who := cfg.Preferences.Computer
	if who == "" {
		who = a.env.Hostname
	}
	return natsstore.Open(natsstore.Options{
		URL: url, Home: home, Creds: cfg.Backend.Creds, TLSCA: cfg.Backend.TLSCA,
		Timeout: a.backendTimeout, Holder: who + " pid " + strconv.Itoa(os.Getpid()),
	})
}

func (a *app) newBackendGroup() *cobra.Command {
	g := group("backend", "The shared home on a NATS server ([backend] in config.toml)")
	g.AddCommand(a.newBackendMigrate())
	return g
}

// newBackendMigrate copies the local home's records into the backend's
// home, which must be empty: the way a person moves to a shared home
// without losing history.
func (a *app) newBackendMigrate() *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Copy the local home (CONCH_HOME) into the empty backend home",
		Long: `Copy every record of the local home (CONCH_HOME) into the home on the
backend that config.toml's [backend] (or CONCH_BACKEND_URL) names. The
backend's home must be empty: nothing there is replaced. config.toml stays
local (it names the backend). Run it once, with no chat running, before
the config names the backend for everyday use.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			dst, ok := a.home.Store().(*natsstore.Store)
			if !ok {
				return usage("no backend: set [backend] url in %s, or CONCH_BACKEND_URL", a.home.Dir+"/config.toml")
			}
			src := store.NewFiles(a.home.Dir, a.env.FS, 0)
			n, err := migrate(src, dst)
			if err != nil {
				return err
			}
			a.committed = true
			return a.printer().Value(map[string]any{"json_version": 2, "records": n, "backend": dst.URL(), "home": dst.Bucket()},
				fmt.Sprintf("copied %d records from %s to %s home %s\n", n, a.home.Dir, dst.URL(), dst.Bucket()))
		}),
	}
}

// notRecord is what a local home holds that is not a record to copy: its
// config, its lock and journal, a hub's own streams.
func notRecord(key string) bool {
	base := path.Base(key)
	return key == "config.toml" || strings.HasSuffix(base, ".lock") || key == store.JournalName ||
		key == store.OldMarkName || strings.HasPrefix(base, ".") || key == "hub" || strings.HasPrefix(key, "hub/")
}

// migrate copies every record of src into dst, under dst's lock, in
// commits of a few hundred records.
func migrate(src store.Store, dst *natsstore.Store) (int, error) {
	unlock, err := dst.Lock(0)
	if err != nil {
		return 0, err
	}
	defer unlock()
	if names, err := dst.List(""); err != nil {
		return 0, err
	} else if len(names) > 0 {
		return 0, fmt.Errorf("%s is not empty (%d names at its top): migrate copies only into an empty home", dst.Where(""), len(names))
	}
	var keys []string
	var walk func(dir string) error
	walk = func(dir string) error {
		names, err := src.List(dir)
		if err != nil {
			return err
		}
		for _, n := range names {
			key := path.Join(dir, n)
			if notRecord(key) {
				continue
			}
			if strings.HasSuffix(n, "/") {
				if err := walk(key); err != nil {
					return err
				}
				continue
			}
			keys = append(keys, key)
		}
		return nil
	}
	if err := walk(""); err != nil {
		return 0, err
	}
	const chunk = 500
	for i := 0; i < len(keys); i += chunk {
		ws := make([]store.Write, 0, chunk)
		for _, k := range keys[i:min(i+chunk, len(keys))] {
			data, err := src.Get(k)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return i, err
			}
			ws = append(ws, store.Write{Key: k, Data: data, Class: store.Durable})
		}
		if _, err := dst.Commit(ws); err != nil {
			return i, err
		}
	}
	return len(keys), nil
}
