package proc

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// IsCodexDaemon says whether process pid is Codex's long-lived app-server
// (`codex app-server …`, which the TUI starts and leaves running after
// /quit, serving every later session): a process that is the harness of a
// turn only while the turn runs, and whose environment is the first
// terminal's, not the session's.
func IsCodexDaemon(pid int) bool {
	if pid <= 0 {
		return false
	}
	data, ok := read("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if !ok {
		return false
	}
	args := bytes.Split(bytes.TrimRight(data, "\x00"), []byte{0})
	if len(args) < 2 {
		return false
	}
	base := filepath.Base(string(args[0]))
	return (base == "codex" || base == "codex.exe") && string(args[1]) == "app-server"
}

// Args are the command-line words process pid started with, nil
// where they cannot be read (a process gone).
func Args(pid int) []string {
	if pid <= 0 {
		return nil
	}
	data, ok := read("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if !ok {
		return nil
	}
	var out []string
	for _, a := range bytes.Split(bytes.TrimRight(data, "\x00"), []byte{0}) {
		out = append(out, string(a))
	}
	return out
}

// CodexClient is the TUI a Codex daemon serves a session in folder for:
// the one codex process of the person's (not the daemon, nor its helper)
// working in that folder with the same CODEX_HOME, or 0 when there is
// none or more than one. It runs the session's turn for as long as the
// person is in it: at /quit the daemon goes on, the TUI does not.
func CodexClient(daemon int, folder, codexHome string) int {
	if folder == "" {
		return 0
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	found := 0
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == daemon {
			continue
		}
		dir := "/proc/" + e.Name()
		exe, err := os.Readlink(dir + "/exe")
		if err != nil || filepath.Base(exe) != "codex" {
			continue
		}
		if cwd, err := os.Readlink(dir + "/cwd"); err != nil || cwd != folder {
			continue
		}
		if IsCodexDaemon(pid) || envOf(pid, "CODEX_HOME") != codexHome {
			continue
		}
		if found != 0 {
			return 0 // two TUIs in one folder: which one is not known
		}
		found = pid
	}
	return found
}

// Env is one variable of the environment process pid started with, ""
// where it is not set or cannot be read (a process gone, another
// person's).
func Env(pid int, name string) string {
	if pid <= 0 {
		return ""
	}
	return envOf(pid, name)
}

// envOf is one variable of a process's environment as it started.
func envOf(pid int, name string) string {
	data, ok := read("/proc/" + strconv.Itoa(pid) + "/environ")
	if !ok {
		return ""
	}
	prefix := []byte(name + "=")
	for _, kv := range bytes.Split(data, []byte{0}) {
		if bytes.HasPrefix(kv, prefix) {
			return string(kv[len(prefix):])
		}
	}
	return ""
}

// Environ is process pid's environment as it started (a harness's own,
// which its hooks may not be given whole), nil where it cannot be read.
func Environ(pid int) []string {
	if pid <= 0 {
		return nil
	}
	data, ok := read("/proc/" + strconv.Itoa(pid) + "/environ")
	if !ok {
		return nil
	}
	var out []string
	for _, kv := range bytes.Split(bytes.TrimRight(data, "\x00"), []byte{0}) {
		out = append(out, string(kv))
	}
	return out
}

// Parent is process pid's parent, 0 where it cannot be read.
func Parent(pid int) int {
	data, ok := read("/proc/" + strconv.Itoa(pid) + "/stat")
	if !ok {
		return 0
	}
	s := string(data)
	shut := strings.LastIndexByte(s, ')')
	if shut < 0 {
		return 0
	}
	fields := strings.Fields(s[shut+1:])
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}
