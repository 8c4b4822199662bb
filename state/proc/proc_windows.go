package proc

import (
	"errors"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows the process API answers: a process's creation time
// (OpenProcess, GetProcessTimes) and, from a snapshot of every process
// (CreateToolhelp32Snapshot), its parent and program. What a process's
// command line, environment and folder hold is not read: no Codex daemon
// is told from its TUI, and no harness's words are known (args_other.go).

const stillActive = 259 // STILL_ACTIVE, what GetExitCodeProcess says of a running process

// Start is the creation time of process pid (100 ns since 1601), and
// whether the process exists. A pid reused by another process has another
// creation time, so a reply is never kept alive by a stranger. A process
// conch may not look into (another person's, an elevated one) exists, its
// time unknown (0).
func Start(pid int) (uint64, bool) {
	if pid <= 0 {
		return 0, false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0, errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	// A handle can outlive its process: an exited one is gone.
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err == nil && code != stillActive {
		return 0, false
	}
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return 0, true
	}
	return uint64(created.HighDateTime)<<32 | uint64(created.LowDateTime), true
}

// Exists says whether a process with that pid exists.
func Exists(pid int) bool {
	_, ok := Start(pid)
	return ok
}

// HarnessPID is the process that runs a chat, seen from a conch command
// whose parent is ppid: past any shell that only ran the command (Git
// Bash's bash.exe, cmd.exe, PowerShell), stopping below conch itself, as
// on Linux (see there).
func HarnessPID(ppid int) int {
	procs := snapshot()
	look := func(pid int) (kinfo, bool) {
		k, ok := procs[pid]
		if !ok {
			return kinfo{}, false
		}
		// Windows keeps the parent's pid after the parent is gone, and
		// may give it to another process: a parent younger than its
		// child is not its parent.
		child, _ := Start(pid)
		if parent, ok := Start(k.ppid); !ok || child != 0 && parent > child {
			k.ppid = 0
		}
		return k, true
	}
	return climb(ppid, look, windowsShell)
}

// snapshot is every process's parent and program name, by pid.
func snapshot() map[int]kinfo {
	procs := map[int]kinfo{}
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return procs
	}
	defer windows.CloseHandle(snap)
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		procs[int(e.ProcessID)] = kinfo{pid: int(e.ProcessID), ppid: int(e.ParentProcessID), comm: windowsName(windows.UTF16ToString(e.ExeFile[:]))}
	}
	return procs
}
