//go:build amd64 || arm64 || riscv64

package proc

import "golang.org/x/sys/unix"

// On FreeBSD's 64-bit systems the kernel answers through sysctl:
// kinfo.go decodes its struct kinfo_proc. A process's words are read
// (kern.proc.args); its folder is not, so no Codex daemon's TUI is found.

// look is the kernel's struct kinfo_proc of process pid (sysctl
// kern.proc.pid), false when there is no such process.
func look(pid int) (kinfo, bool) {
	if pid <= 0 {
		return kinfo{}, false
	}
	b, err := unix.SysctlRaw("kern.proc.pid", pid)
	if err != nil {
		return kinfo{}, false
	}
	k, ok := freebsdKinfo(b)
	return k, ok && k.pid == pid
}

// Start is the start time of process pid (microseconds since the epoch),
// and whether the process exists. A pid reused by another process has another
// start time, so a reply is never kept alive by a stranger.
func Start(pid int) (uint64, bool) { return startOf(pid, look) }

// HarnessPID is the process that runs a chat, seen from a conch command
// whose parent is ppid: past any shell that only ran the command, stopping
// below conch itself, as on Linux (see there).
func HarnessPID(ppid int) int { return climb(ppid, look, shell) }

// Args are the command-line words process pid started with, nil where
// they cannot be read.
func Args(pid int) []string {
	if pid <= 0 {
		return nil
	}
	b, err := unix.SysctlRaw("kern.proc.args", pid)
	if err != nil || len(b) == 0 {
		return nil
	}
	return nulWords(b)
}

// IsCodexDaemon says whether process pid is Codex's long-lived app-server
// (see Linux's).
func IsCodexDaemon(pid int) bool { return codexDaemon(Args(pid)) }

// Env is one variable of the environment process pid started with: here
// not read (CodexClient, which asks for it, finds no TUI here).
func Env(pid int, name string) string { return "" }

// CodexClient is the TUI a Codex daemon serves a session in folder for:
// here, none (a process's folder is not read).
func CodexClient(daemon int, folder, codexHome string) int { return 0 }

// Environ is process pid's environment: on FreeBSD, not read.
func Environ(pid int) []string { return nil }

// Parent is process pid's parent, 0 where it cannot be read.
func Parent(pid int) int {
	k, ok := look(pid)
	if !ok {
		return 0
	}
	return k.ppid
}
