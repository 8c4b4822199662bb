package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/internal/handover"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
	"github.com/conch-sh/conch/state/store/natsstore/join"
)

// OpenBackend opens a home on a NATS server (cli/natsbackend.Open).
type OpenBackend func(BackendConfig) (BackendStore, error)

// BackendConfig is what config.toml's [backend] says, and who asks.
type BackendConfig struct {
	URL, Home, Creds, TLSCA string
	Replicas                int           // copies of the home's bucket: 1 or 3; 0: 1
	Holder                  string        // who holds the lock: computer and pid
	Timeout                 time.Duration // reaching the server, each request; 0: the store's
}

// BackendStore is a home on a server.
type BackendStore interface {
	store.Store
	URL() string
	Bucket() string
	Health() (BackendHealth, error)
}

// BackendHealth is what conch doctor says of a backend.
type BackendHealth struct {
	RTT      time.Duration
	Summary  string
	Problems []string
	// Authenticated and Encrypted say what the link is: credentials the
	// server asked for, TLS.
	Authenticated, Encrypted bool
}

// conchNats is the conch that links the NATS client.
const conchNats = handover.ConchNats

// backendURL is the backend the home names: CONCH_BACKEND_URL, else
// config.toml's [backend] url; "" for a local home. A config that cannot
// be read names none here: opening the home says what is wrong with it.
func (a *app) backendURL() string {
	if url := a.env.Getenv("CONCH_BACKEND_URL"); url != "" {
		return url
	}
	if c := a.localConfig(); c != nil {
		return c.BackendURL()
	}
	return ""
}

// localConfig is the home's config.toml, read once a command (backendURL
// reads it before the home is opened, and Open takes it from there); nil
// when there is no home folder to name.
func (a *app) localConfig() *state.LocalConfig {
	if a.config == nil {
		if dir := a.homeDir(); dir != "" {
			a.config = state.ReadLocalConfig(dir, a.env.FS)
		}
	}
	return a.config
}

// runOnBackend runs the command in conch-nats when the home names a
// backend and this conch cannot reach one: the same words, environment
// and streams, in place of this process (ran is false when there is
// nothing to do). conch-nats is looked for beside conch, then on PATH.
func (a *app) runOnBackend(args []string) (code int, ran bool) {
	if a.env.OpenBackend != nil || !handover.Runs(args) {
		return 0, false
	}
	if a.env.Getenv("CONCH_BACKEND_URL") == "" && !a.localConfig().MayNameBackend() {
		return 0, false
	}
	// A config with a [backend] table hands over before it is decoded
	// (as package early does before conch starts): conch-nats decodes it,
	// and runs a home it names no backend for as conch would.
	err := execBeside(a.env, conchNats, args)
	// Only a failed exec returns.
	url := a.backendURL()
	if url == "" {
		return 0, false // the table names none: the local home
	}
	msg := fmt.Sprintf("the home is on the backend %s, and %s cannot be run: %v (CGO_ENABLED=0 go install github.com/conch-sh/conch/cmd/conch-nats)", url, conchNats, err)
	if errors.Is(err, errNoExec) {
		msg = fmt.Sprintf("the home is on the backend %s, and this system cannot run %s in conch's place (Windows has no exec): run %s itself, or a conch built with go install -tags nats ./cmd/conch", url, conchNats, conchNats)
	}
	if handover.FirstWord(args) == "hook" {
		// A hook never breaks the session it serves.
		fmt.Fprintf(a.env.Err, "conch: warning: hook: %s\n", msg)
		return ExitOK, true
	}
	a.printer().Error(msg, ExitFailed)
	return ExitFailed, true
}

// errNoExec is execBeside's error where a process cannot be replaced.
var errNoExec = errors.New("this system cannot replace a process")

// execBeside replaces this process with the program name (a conch that
// links what this one leaves out), looked for beside conch, then on PATH,
// with the same environment and streams; only a failure returns.
func execBeside(env Env, name string, args []string) error {
	if env.Exec == nil {
		return errNoExec
	}
	self := ""
	if env.Exe != nil {
		self = env.Exe()
	}
	exe, err := handover.Find(self, name)
	if err != nil {
		return err
	}
	return env.Exec(exe, append([]string{exe}, args...), os.Environ())
}

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
	if err := join.Refusal(join.Link{URL: url, Creds: cfg.Backend.Creds, TLSCA: cfg.Backend.TLSCA}); err != nil {
		return nil, usage("%v", err)
	}
	if r := cfg.Backend.Replicas; r != 0 && r != 1 && r != 3 {
		return nil, usage("[backend] replicas = %d: 1, or 3 on a cluster of three nodes", r)
	}
	if a.env.OpenBackend == nil {
		return nil, fmt.Errorf("the home is on the backend %s: this conch cannot reach one (run %s)", url, conchNats)
	}
	home := a.env.Getenv("CONCH_BACKEND_HOME")
	if home == "" {
		home = cfg.Backend.Home
	}
	who := cfg.Preferences.Computer
	if who == "" {
		who = a.env.Hostname
	}
	return a.env.OpenBackend(BackendConfig{
		URL: url, Home: home, Creds: cfg.Backend.Creds, TLSCA: cfg.Backend.TLSCA, Replicas: cfg.Backend.Replicas,
		Timeout: a.backendTimeout, Holder: who + " pid " + strconv.Itoa(os.Getpid()),
	})
}

func newBackendGroup(a *app) *cobra.Command {
	g := group("backend", "One home on several computers: the records on NATS JetStream ([backend])")
	g.Long = strings.TrimRight(topicBackend, "\n")
	g.AddCommand(newBackendMigrateCmd(a, nil), newBackendJoinCmd(a, nil))
	return g
}

// backendMigrateOptions are conch backend migrate's (it has no words).
type backendMigrateOptions struct {
	IO   *render.Printer
	Home homeRW
}

// newBackendMigrateCmd is conch backend migrate, which copies the local
// home's records into the backend's home, which must be empty: the way a
// person moves to a shared home without losing history. runF, when not
// nil, gets the options instead of the run (for tests).
func newBackendMigrateCmd(a *app, runF func(*backendMigrateOptions) error) *cobra.Command {
	o := &backendMigrateOptions{}
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
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home = a.printer(), a.homeRW()
			return runBackendMigrate(o)
		}),
	}
}

// runBackendMigrate copies the records, and says how many.
func runBackendMigrate(o *backendMigrateOptions) error {
	home := o.Home.home
	dst, ok := home.Store().(BackendStore)
	if !ok {
		return usage("no backend: set [backend] url in %s, or CONCH_BACKEND_URL", home.Dir+"/config.toml")
	}
	n, err := migrate(home.Local(), dst)
	if err != nil {
		return err
	}
	o.Home.markCommitted()
	return o.IO.Value(map[string]any{"records": n, "backend": dst.URL(), "home": dst.Bucket()},
		fmt.Sprintf("copied %d records from %s to %s home %s\n", n, home.Dir, dst.URL(), dst.Bucket()))
}

// stayLocal is what a local home holds that stays on this computer when
// its records go to a backend: its config, a hub's own streams, the
// commands kept here, the credentials join wrote (the store's own files,
// its lock and journal, store.Copy passes over itself).
func stayLocal(key string) bool {
	return key == "config.toml" || key == "hub" || strings.HasPrefix(key, "hub/") ||
		key == "commands" || strings.HasPrefix(key, "commands/") || key == joinCreds || key == joinCA
}

// migrate copies every record of the local home src into dst, under dst's
// lock, in commits of a few hundred records.
func migrate(src store.Store, dst BackendStore) (int, error) {
	return store.Copy(dst, src, store.CopyOptions{
		Skip: stayLocal,
		Keep: func(key string, data []byte) ([]byte, error) { return keepCommandsHere(src, key, data) },
	})
}

// keepCommandsHere is a chat's record as the backend gets it: what runs a
// program (wake_cmd, stop_cmd, cmd_env) stays in this computer's own
// files, commands/ID.json, as state keeps it on a shared home; the other
// records as they are.
func keepCommandsHere(local store.Store, key string, data []byte) ([]byte, error) {
	dir, name := path.Split(key)
	id, ok := strings.CutSuffix(name, ".json")
	if dir != "chats/" && dir != "tasks/" || !ok || !bytes.Contains(data, []byte(`_cmd"`)) && !bytes.Contains(data, []byte(`"cmd_env"`)) {
		return data, nil
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("%s: %v", local.Where(key), err)
	}
	var k state.Commands
	for field, to := range map[string]any{"wake_cmd": &k.WakeCmd, "stop_cmd": &k.StopCmd, "cmd_env": &k.CmdEnv, "folder": &k.Folder} {
		if raw, ok := rec[field]; ok {
			if err := json.Unmarshal(raw, to); err != nil {
				return nil, fmt.Errorf("%s: %s: %v", local.Where(key), field, err)
			}
		}
	}
	delete(rec, "wake_cmd")
	delete(rec, "stop_cmd")
	delete(rec, "cmd_env")
	if k.WakeCmd != "" || k.StopCmd != "" {
		kept, err := json.MarshalIndent(k, "", " ")
		if err != nil {
			return nil, err
		}
		unlock, err := local.Lock(0)
		if err != nil {
			return nil, err
		}
		_, err = local.Commit([]store.Write{{Key: "commands/" + id + ".json", Data: append(kept, '\n'), Class: store.Durable}})
		unlock()
		if err != nil {
			return nil, err
		}
	}
	return json.MarshalIndent(rec, "", " ")
}

// reach are the backend variables of this command's environment, which
// every command conch starts for this home is given too (a wake_cmd, gc):
// without them it would open the local files, another home.
func (a *app) reach() []string {
	var vars []string
	for _, k := range []string{"CONCH_BACKEND_URL", "CONCH_BACKEND_HOME"} {
		if v := a.env.Getenv(k); v != "" {
			vars = append(vars, k+"="+v)
		}
	}
	return vars
}
