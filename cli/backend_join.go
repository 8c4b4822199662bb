package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
	"github.com/conch-sh/conch/state/store/natsstore/join"
)

// The files conch backend join writes in CONCH_HOME, beside config.toml.
const (
	joinCreds = "hub.creds"
	joinCA    = "hub-ca.pem"
)

// backendJoinOptions are conch backend join's words.
type backendJoinOptions struct {
	url, home string // the hub's URL; --home, the home on it
	seed, ca  []byte // the token's key and CA
	dir       string // the local home, CONCH_HOME

	IO *render.Printer
	FS store.FS // nil: the real file system
}

// newBackendJoinCmd is conch backend join, which writes what the line
// conch-hub printed gives this computer: the credentials, the CA and the
// [backend] of config.toml. runF, when not nil, gets the checked options
// instead of the run (for tests).
func newBackendJoinCmd(a *app, runF func(*backendJoinOptions) error) *cobra.Command {
	o := &backendJoinOptions{}
	cmd := &cobra.Command{
		Use:   "join URL TOKEN",
		Short: "Join this computer to a hub: the line conch-hub printed",
		Long: `Join this computer to the home on a hub, with the line conch-hub printed
on its first start: URL is the hub's (tls://HOST:4222; a cluster's nodes
separated by commas) and TOKEN its user's key and its CA. It writes
CONCH_HOME/hub.creds and CONCH_HOME/hub-ca.pem (0600) and sets [backend]
url, creds and tls_ca in CONCH_HOME/config.toml (0600), keeping the rest
of it. conch doctor then says whether the link is authenticated and
encrypted. Nothing is reached: a wrong token is told by the first command.`,
		Args:        exactArgs(2, "the hub's URL and its token"),
		Annotations: access(accessNone),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			url, tok := strings.TrimSpace(args[0]), args[1]
			seed, ca, err := join.ParseToken(tok)
			if err != nil {
				return usage("conch backend join: the token: %v", err)
			}
			if err := join.Refusal(join.Link{URL: url, Creds: joinCreds}); err != nil {
				return usage("conch backend join: %v", err)
			}
			if o.home != "" && !validBucket(o.home) {
				return usage("conch backend join: --home %q: a name of letters, digits, - and _", o.home)
			}
			o.dir = a.homeDir()
			if o.dir == "" {
				return errors.New("no CONCH_HOME and no home folder to join")
			}
			o.url, o.seed, o.ca = url, seed, ca
			if runF != nil {
				return runF(o)
			}
			o.IO, o.FS = a.printer(), a.env.FS
			return runBackendJoin(o)
		}),
	}
	cmd.Flags().StringVar(&o.home, "home", "", "the home on the hub (default: conch's, \"conch\")")
	return cmd
}

// runBackendJoin writes the credentials, the CA and the config, the
// config last: a join cut short leaves the config as it was.
func runBackendJoin(o *backendJoinOptions) error {
	dir, url, home, seed, ca := o.dir, o.url, o.home, o.seed, o.ca
	fsys := o.FS
	if fsys == nil {
		fsys = store.OSFS{}
	}
	cfgPath := filepath.Join(dir, "config.toml")
	old, err := fsys.ReadFile(cfgPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("config %s: %v", cfgPath, err)
	}
	creds, caPath := filepath.Join(dir, joinCreds), filepath.Join(dir, joinCA)
	set := []backendKey{{"url", url}, {"creds", creds}, {"tls_ca", caPath}}
	if home != "" {
		set = append(set, backendKey{"home", home})
	}
	cfg, err := setBackend(old, set)
	if err != nil {
		return fmt.Errorf("config %s: %v", cfgPath, err)
	}
	if err := fsys.MkdirAll(dir); err != nil {
		return err
	}
	for _, f := range []struct {
		path string
		data []byte
	}{{creds, append(bytes.TrimSpace(seed), '\n')}, {caPath, ca}, {cfgPath, cfg}} {
		if err := fsys.WriteFile(f.path, f.data, true); err != nil {
			return err
		}
	}
	if err := fsys.SyncDir(dir); err != nil {
		return err
	}
	return o.IO.Value(map[string]any{"backend": url, "config": cfgPath, "creds": creds, "tls_ca": caPath},
		fmt.Sprintf("joined %s: [backend] in %s, its credentials in %s and %s (conch doctor checks the link)\n", url, cfgPath, creds, caPath))
}

// validBucket is natsstore.ValidHome, which plain conch does not link.
func validBucket(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

type backendKey struct{ key, value string }

// setBackend is config.toml with the keys set in its [backend] table:
// each key's line replaced where the table has one, the others added
// under its header, the table added at the end when there is none; every
// other line as it was. A config it cannot edit so (a key written another
// way, a file that is not TOML) is an error, and nothing is written.
func setBackend(cfg []byte, set []backendKey) ([]byte, error) {
	for _, k := range set {
		if strings.ContainsFunc(k.value, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return nil, fmt.Errorf("[backend] %s: a value with a control character", k.key)
		}
	}
	if len(cfg) > 0 {
		var probe map[string]any
		if err := toml.Unmarshal(cfg, &probe); err != nil {
			return nil, fmt.Errorf("not TOML, left as it is (fix it, then join again): %v", err)
		}
	}
	lines := strings.SplitAfter(string(cfg), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	header := -1
	end := len(lines)
	for i, l := range lines {
		t := tableName(l)
		if header < 0 && t == "backend" {
			header = i
		} else if header >= 0 && t != "" {
			end = i
			break
		}
	}
	done := map[string]bool{}
	line := func(k backendKey) string { return k.key + " = " + tomlString(k.value) + "\n" }
	if header >= 0 {
		for i := header + 1; i < end; i++ {
			for _, k := range set {
				if keyOf(lines[i]) == k.key {
					lines[i] = line(k)
					done[k.key] = true
				}
			}
		}
		var add []string
		for _, k := range set {
			if !done[k.key] {
				add = append(add, line(k))
			}
		}
		lines = append(lines[:header+1], append(add, lines[header+1:]...)...)
	} else {
		if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
			lines[n-1] += "\n"
		}
		if len(lines) > 0 {
			lines = append(lines, "\n")
		}
		lines = append(lines, "[backend]\n")
		for _, k := range set {
			lines = append(lines, line(k))
		}
	}
	out := []byte(strings.Join(lines, ""))
	// What it wrote is what it meant: read back as conch reads it.
	var got state.Config
	if err := toml.Unmarshal(out, &got); err != nil {
		return nil, fmt.Errorf("its [backend] cannot be set line by line (edit it by hand): %v", err)
	}
	want := map[string]string{"url": got.Backend.URL, "creds": got.Backend.Creds, "tls_ca": got.Backend.TLSCA, "home": got.Backend.Home}
	for _, k := range set {
		if want[k.key] != k.value {
			return nil, fmt.Errorf("its [backend] %s is written in a way join cannot replace (edit it by hand)", k.key)
		}
	}
	return out, nil
}

// tableName is the name of the table a line opens ("backend" for
// "[backend]  # comment"), or "".
func tableName(l string) string {
	t := strings.TrimSpace(l)
	if !strings.HasPrefix(t, "[") {
		return ""
	}
	name, _, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(t, "["), "["), "]")
	if !ok {
		return ""
	}
	return strings.Trim(strings.TrimSpace(name), `"'`)
}

// keyOf is the bare key a line sets ("url" for `url = "…"`), or "".
func keyOf(l string) string {
	k, _, ok := strings.Cut(l, "=")
	if !ok {
		return ""
	}
	return strings.Trim(strings.TrimSpace(k), `"'`)
}

// tomlString quotes s as a TOML basic string (no control characters:
// setBackend refuses them).
func tomlString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
