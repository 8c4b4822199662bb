package proc

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
)

// PersonEnv is the fixed part of the environment of a command conch runs
// for the person (a notify command): the account's HOME, USER and LOGNAME
// from the system's user database, and the login session's
// XDG_RUNTIME_DIR and session bus when they are there. Nothing comes from
// the environment of the process asking, which may be a chat's.
func PersonEnv() []string {
	var env []string
	if u, err := user.Current(); err == nil {
		env = append(env, "HOME="+u.HomeDir, "USER="+u.Username, "LOGNAME="+u.Username)
	}
	if uid := os.Getuid(); uid >= 0 {
		run := fmt.Sprintf("/run/user/%d", uid)
		if fi, err := os.Stat(run); err == nil && fi.IsDir() {
			env = append(env, "XDG_RUNTIME_DIR="+run)
			if _, err := os.Stat(filepath.Join(run, "bus")); err == nil {
				env = append(env, "DBUS_SESSION_BUS_ADDRESS=unix:path="+run+"/bus")
			}
		}
	}
	return env
}

// LookPath finds the program name on path (a PATH value, not this
// process's): the first executable file of that name in its folders.
func LookPath(name, path string) (string, bool) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}
