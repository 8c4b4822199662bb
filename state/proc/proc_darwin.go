package proc

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// On macOS the kernel answers through sysctl and proc_info, not files:
// kinfo.go decodes what it hands over, this file only asks for it.

// look is the kernel's struct kinfo_proc of process pid (sysctl
// kern.proc.pid), false when there is no such process.
func look(pid int) (kinfo, bool) {
	if pid <= 0 {
		return kinfo{}, false
	}
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return kinfo{}, false
	}
	r, ok := darwinKinfo(unsafe.Slice((*byte)(unsafe.Pointer(k)), unix.SizeofKinfoProc))
	return r, ok && r.pid == pid
}

// Start is the start time of process pid (microseconds since the epoch),
// and whether the process exists. A pid reused by another process has
// another start time, so a reply is never kept alive by a stranger.
func Start(pid int) (uint64, bool) { return startOf(pid, look) }

// HarnessPID is the process that runs a chat, seen from a conch command
// whose parent is ppid: past any shell that only ran the command, stopping
// below conch itself, as on Linux (see there).
func HarnessPID(ppid int) int { return climb(ppid, look, shell) }

// details is what process pid's own details say: its words and
// environment (sysctl kern.procargs2, the person's own processes only)
// and its current folder (proc_info).
func details(pid int) seen {
	var d seen
	if b, err := unix.SysctlRaw("kern.procargs2", pid); err == nil {
		d.args, d.env = darwinProcArgs(b)
	}
	d.cwd = cwd(pid)
	return d
}

// cwd is process pid's current folder, "" when it cannot be read:
// libproc's proc_pidinfo(PROC_PIDVNODEPATHINFO), which is the proc_info
// system call.
func cwd(pid int) string {
	const callPIDInfo, vnodePathInfo = 2, 9
	var b [darwinVnodePathInfoSize]byte
	n, _, e := syscall.Syscall6(unix.SYS_PROC_INFO, callPIDInfo, uintptr(pid), vnodePathInfo, 0,
		uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if e != 0 || n > uintptr(len(b)) {
		return ""
	}
	return darwinCwd(b[:n])
}

// IsCodexDaemon says whether process pid is Codex's long-lived app-server
// (`codex app-server …`, which the TUI starts and leaves running after
// /quit, serving every later session): a process that is the harness of a
// turn only while the turn runs, and whose environment is the first
// terminal's, not the session's.
func IsCodexDaemon(pid int) bool { return pid > 0 && codexDaemon(Args(pid)) }

// Args are the command-line words process pid started with, nil where
// they cannot be read (a process gone, another person's).
func Args(pid int) []string {
	if pid <= 0 {
		return nil
	}
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil
	}
	args, _ := darwinProcArgs(b)
	return args
}

// Env is one variable of the environment process pid started with, ""
// where it is not set or cannot be read (sysctl kern.procargs2: the
// person's own processes only).
func Env(pid int, name string) string {
	if pid <= 0 {
		return ""
	}
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return ""
	}
	_, env := darwinProcArgs(b)
	return lookupEnv(env, name)
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
	all, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil || len(all) == 0 {
		return 0
	}
	recs := unsafe.Slice((*byte)(unsafe.Pointer(&all[0])), len(all)*unix.SizeofKinfoProc)
	return codexClient(daemon, folder, codexHome, darwinKinfos(recs), details)
}

// Environ is process pid's environment as it started (sysctl
// kern.procargs2, the person's own processes only), nil where it cannot
// be read.
func Environ(pid int) []string { return details(pid).env }

// Parent is process pid's parent, 0 where it cannot be read.
func Parent(pid int) int {
	k, ok := look(pid)
	if !ok {
		return 0
	}
	return k.ppid
}
