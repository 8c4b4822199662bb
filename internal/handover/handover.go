// Package handover is where a plain conch, one that does not link the
// NATS client, gives a command over to conch-nats: every command on a
// home that names a backend, but those that never reach its records. cli
// decides by it (cli.Main), and package early acts on it as the process
// starts, before the rest of conch does (a plain conch's own start-up is
// the first half of the hand-over's cost: issue 25).
//
// The rules only choose which program runs the command, never what it
// does: conch-nats is conch with the client linked, and runs a home whose
// config names no backend after all as conch would.
package handover

// It imports only errors and os, which start first: package early's init
// runs once every package its own imports stand on has been initialized,
// and the linker takes the ready packages in the order of their paths,
// so one import of strings (or bytes, slices, path/filepath) would wait
// for reflect, encoding/json and the rest that sort before it. Hence the
// few lines below that those packages would give.
import (
	"errors"
	"os"
)

// ConchNats is the conch that links the NATS client.
const ConchNats = "conch-nats"

// FirstWord is the command a run names: its first word that is not a
// flag (or a flag's value), "" when there is none.
func FirstWord(args []string) string {
	for i := 0; i < len(args); i++ {
		switch arg := args[i]; {
		case arg == "--":
			return ""
		case arg == "--chat":
			i++ // its value
		case arg != "" && arg[0] == '-':
		default:
			return arg
		}
	}
	return ""
}

// Runs says whether the command args runs on a home's backend: every one
// but version, help and completion, mcp (it runs conch-mcp, which links
// the client) and backend join (it writes the local config, and reaches
// nothing).
func Runs(args []string) bool {
	switch FirstWord(args) {
	case "", "version", "help", "completion", "mcp":
		return false
	case "backend":
		for i, arg := range args {
			if arg == "backend" {
				return FirstWord(args[i+1:]) != "join"
			}
		}
	}
	return true
}

// MayName says whether a home's config.toml may name a backend: it has a
// [backend] table. False is sure (the local home); true is not, and the
// config is decoded to tell.
func MayName(config []byte) bool { return contains(config, "[backend]") }

// contains says whether b holds s.
func contains(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return true
		}
	}
	return false
}

// Wanted says whether a plain conch gives the command args over: it runs
// on a backend, and CONCH_BACKEND_URL names one or the config of the home
// (CONCH_HOME, else ~/.conch) may.
func Wanted(args []string, getenv func(string) string) bool {
	if !Runs(args) {
		return false
	}
	if getenv("CONCH_BACKEND_URL") != "" {
		return true
	}
	dir := getenv("CONCH_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return false
		}
		dir = join(home, ".conch")
	}
	config, err := os.ReadFile(join(dir, "config.toml"))
	return err == nil && MayName(config)
}

// Find is the program name beside the running conch (self), else on
// PATH: the first of its folders (absolute ones: a relative folder on
// PATH is not looked in, as os/exec refuses one) where name is a file
// that may be run.
func Find(self, name string) (string, error) {
	for i := len(self) - 1; i >= 0; i-- {
		if self[i] == os.PathSeparator {
			if p := join(self[:i], name); runnable(p) {
				return p, nil
			}
			break
		}
	}
	for path := os.Getenv("PATH"); path != ""; {
		dir := path
		path = ""
		for i := 0; i < len(dir); i++ {
			if dir[i] == os.PathListSeparator {
				dir, path = dir[:i], dir[i+1:]
				break
			}
		}
		if p := join(dir, name); isAbs(dir) && runnable(p) {
			return p, nil
		}
	}
	return "", errors.New("not beside conch, nor on PATH")
}

func join(dir, name string) string {
	if dir != "" && dir[len(dir)-1] == os.PathSeparator {
		return dir + name
	}
	return dir + string(os.PathSeparator) + name
}

// isAbs says whether dir is absolute: rooted, or on Windows a drive's.
func isAbs(dir string) bool {
	return dir != "" && dir[0] == os.PathSeparator || len(dir) > 2 && dir[1] == ':' && os.PathSeparator == '\\'
}

// runnable says whether p is a file that may be run (Windows keeps no
// mode bit for it: a file).
func runnable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && (st.Mode()&0o111 != 0 || os.PathSeparator == '\\')
}
