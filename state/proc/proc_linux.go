package proc

import (
	"strconv"
	"strings"
)

// Start is the start time of process pid (clock ticks since boot), and
// whether the process exists. A pid reused by another process has another
// start time, so a reply is never kept alive by a stranger.
func Start(pid int) (uint64, bool) {
	if pid <= 0 {
		return 0, false
	}
	data, ok := read("/proc/" + strconv.Itoa(pid) + "/stat")
	if !ok {
		return 0, false
	}
	s := string(data)
	// The command name may hold spaces and parentheses: skip past the last ')'.
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, true
	}
	fields := strings.Fields(s[i+1:])
	// fields[0] is the state (field 3); the start time is field 22.
	if len(fields) < 20 {
		return 0, true
	}
	if fields[0] == "Z" || fields[0] == "X" {
		return 0, false
	}
	start, _ := strconv.ParseUint(fields[19], 10, 64)
	return start, true
}

// HarnessPID is the process that runs a chat, seen from a conch command
// whose parent is ppid: past any shell that only ran the command (an
// agent's shell tool, a hook's `sh -c`), which is gone the moment conch is.
//
// The climb stops below conch itself: a wake_cmd's shell is started by the
// conch command that woke the chat, which is no harness and exits at once
// (a reply resting on it would read as gone while its harness still runs).
func HarnessPID(ppid int) int {
	pid, below := ppid, ppid
	for i := 0; i < 4; i++ {
		data, ok := read("/proc/" + strconv.Itoa(pid) + "/stat")
		if !ok {
			return pid
		}
		s := string(data)
		open, shut := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || shut < open {
			return pid
		}
		name := s[open+1 : shut]
		if name == "conch" {
			return below
		}
		if !shell(name) {
			return pid
		}
		fields := strings.Fields(s[shut+1:])
		if len(fields) < 2 {
			return pid
		}
		parent, err := strconv.Atoi(fields[1])
		if err != nil || parent <= 1 {
			return pid
		}
		below, pid = pid, parent
	}
	return pid
}
