package state

import (
	"bytes"
	"path/filepath"
	"runtime"
	"strconv"
)

// IsCodexDaemon says whether process pid is Codex's long-lived app-server
// (`codex app-server …`, which the TUI starts and leaves running after
// /quit, serving every later session): a process that is the harness of a
// turn only while the turn runs, and whose environment is the first
// terminal's, not the session's. Only Linux can tell; elsewhere, no.
func IsCodexDaemon(pid int) bool {
	if runtime.GOOS != "linux" || pid <= 0 {
		return false
	}
	data, err := readFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return false
	}
	args := bytes.Split(bytes.TrimRight(data, "\x00"), []byte{0})
	if len(args) < 2 {
		return false
	}
	base := filepath.Base(string(args[0]))
	return (base == "codex" || base == "codex.exe") && string(args[1]) == "app-server"
}
