package proc

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
)

// What macOS's (and FreeBSD's) kernel says of a process, decoded from the bytes it hands
// over: a struct kinfo_proc (sysctl kern.proc.pid), the words and
// environment a process started with (sysctl kern.procargs2) and its
// current folder (proc_info's PROC_PIDVNODEPATHINFO). The decoding and
// what conch does with it are plain Go, built on every system, so that
// Linux's tests run them over records laid out as a Mac lays them out;
// proc_darwin.go only asks the kernel for the bytes.

// A kinfo is what conch reads of one process's kinfo_proc.
type kinfo struct {
	pid, ppid int
	start     uint64 // microseconds since the epoch: with pid, the process
	comm      string // the program's name, as the kernel cut it (16 bytes)
	zombie    bool   // exited, not yet reaped: gone, as Linux's Z
}

// Where conch's fields are in Darwin's struct kinfo_proc (<sys/sysctl.h>:
// a struct extern_proc, then a struct eproc), the same on arm64 and amd64,
// both little-endian: x/sys/unix's ztypes_darwin_arm64.go and _amd64.go
// (KinfoProc, SizeofKinfoProc), which proc_darwin_test.go checks on a Mac.
const (
	darwinKinfoSize = 0x288
	darwinStartSec  = 0   // p_starttime.tv_sec, int64
	darwinStartUsec = 8   // p_starttime.tv_usec, int32
	darwinStat      = 36  // p_stat, int8
	darwinPID       = 40  // p_pid, int32
	darwinComm      = 243 // p_comm, char[MAXCOMLEN+1]
	darwinCommLen   = 17
	darwinPPID      = 560 // e_ppid, int32
	darwinZombie    = 5   // SZOMB, <sys/proc.h>
)

// darwinKinfo decodes one struct kinfo_proc; false for bytes of another
// size.
func darwinKinfo(b []byte) (kinfo, bool) {
	if len(b) != darwinKinfoSize {
		return kinfo{}, false
	}
	le := binary.LittleEndian
	sec := le.Uint64(b[darwinStartSec:])
	usec := uint64(le.Uint32(b[darwinStartUsec:]))
	comm := b[darwinComm : darwinComm+darwinCommLen]
	if i := bytes.IndexByte(comm, 0); i >= 0 {
		comm = comm[:i]
	}
	return kinfo{
		pid:    int(int32(le.Uint32(b[darwinPID:]))),
		ppid:   int(int32(le.Uint32(b[darwinPPID:]))),
		start:  sec*1_000_000 + usec,
		comm:   string(comm),
		zombie: b[darwinStat] == darwinZombie,
	}, true
}

// Where conch's fields are in FreeBSD's struct kinfo_proc (<sys/user.h>,
// KINFO_PROC_SIZE) on its 64-bit systems (amd64, arm64, riscv64), all
// little-endian.
const (
	freebsdKinfoSize = 0x440
	freebsdPID       = 72  // ki_pid, int32
	freebsdPPID      = 76  // ki_ppid, int32
	freebsdStartSec  = 336 // ki_start.tv_sec, int64
	freebsdStartUsec = 344 // ki_start.tv_usec, int64
	freebsdStat      = 388 // ki_stat, char
	freebsdComm      = 447 // ki_comm, char[COMMLEN+1]
	freebsdCommLen   = 20
	freebsdZombie    = 5 // SZOMB, <sys/proc.h>
)

// freebsdKinfo decodes one of FreeBSD's struct kinfo_proc; false for
// bytes of another size.
func freebsdKinfo(b []byte) (kinfo, bool) {
	if len(b) != freebsdKinfoSize {
		return kinfo{}, false
	}
	le := binary.LittleEndian
	comm := b[freebsdComm : freebsdComm+freebsdCommLen]
	if i := bytes.IndexByte(comm, 0); i >= 0 {
		comm = comm[:i]
	}
	return kinfo{
		pid:    int(int32(le.Uint32(b[freebsdPID:]))),
		ppid:   int(int32(le.Uint32(b[freebsdPPID:]))),
		start:  le.Uint64(b[freebsdStartSec:])*1_000_000 + le.Uint64(b[freebsdStartUsec:]),
		comm:   string(comm),
		zombie: b[freebsdStat] == freebsdZombie,
	}, true
}

// nulWords are the NUL-ended words of FreeBSD's kern.proc.args (as
// Linux's /proc/PID/cmdline).
func nulWords(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			i = len(b)
		}
		out = append(out, string(b[:i]))
		b = b[min(i+1, len(b)):]
	}
	return out
}

// darwinKinfos decodes the records of sysctl kern.proc.all, one after
// the other; a piece too short for a record is left.
func darwinKinfos(b []byte) []kinfo {
	var out []kinfo
	for ; len(b) >= darwinKinfoSize; b = b[darwinKinfoSize:] {
		k, _ := darwinKinfo(b[:darwinKinfoSize])
		out = append(out, k)
	}
	return out
}

// startOf is Start over look: a process that is not there, or has exited
// and is not yet reaped, is gone.
func startOf(pid int, look func(pid int) (kinfo, bool)) (uint64, bool) {
	if pid <= 0 {
		return 0, false
	}
	k, ok := look(pid)
	if !ok || k.zombie {
		return 0, false
	}
	return k.start, true
}

// climb is HarnessPID over look, as Linux's reads /proc: past the shells
// (a program whose name isShell says is one) that only ran the command,
// stopping below a process named conch.
func climb(ppid int, look func(pid int) (kinfo, bool), isShell func(name string) bool) int {
	pid, below := ppid, ppid
	for i := 0; i < 4; i++ {
		k, ok := look(pid)
		if !ok {
			return pid
		}
		if k.comm == "conch" {
			return below
		}
		if !isShell(k.comm) || k.ppid <= 1 {
			return pid
		}
		below, pid = pid, k.ppid
	}
	return pid
}

// darwinProcArgs decodes sysctl kern.procargs2: argc (an int32), the
// program's path, NULs up to the first word, argc words, then the
// environment, each NUL-ended, up to an empty string (after it, the
// kernel's own strings). What is cut short is left out.
func darwinProcArgs(b []byte) (args, env []string) {
	if len(b) < 4 {
		return nil, nil
	}
	argc := int(int32(binary.LittleEndian.Uint32(b)))
	i := bytes.IndexByte(b[4:], 0)
	if i < 0 {
		return nil, nil
	}
	rest := bytes.TrimLeft(b[4+i:], "\x00")
	for len(args) < argc {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			return args, nil
		}
		args = append(args, string(rest[:i]))
		rest = rest[i+1:]
	}
	for {
		i := bytes.IndexByte(rest, 0)
		if i <= 0 {
			return args, env
		}
		env = append(env, string(rest[:i]))
		rest = rest[i+1:]
	}
}

// Darwin's struct proc_vnodepathinfo (<sys/proc_info.h>): the current
// folder (a struct vnode_info, then its path in MAXPATHLEN bytes), then
// the root folder, laid out alike.
const (
	darwinVnodeInfoSize     = 152
	darwinPathMax           = 1024
	darwinVnodePathInfoSize = 2 * (darwinVnodeInfoSize + darwinPathMax)
)

// darwinCwd is the current folder in a struct proc_vnodepathinfo, "" when
// it is not there whole.
func darwinCwd(b []byte) string {
	if len(b) < darwinVnodeInfoSize+darwinPathMax {
		return ""
	}
	p := b[darwinVnodeInfoSize : darwinVnodeInfoSize+darwinPathMax]
	i := bytes.IndexByte(p, 0)
	if i < 0 {
		return ""
	}
	return string(p[:i])
}

// codexDaemon says whether a process that started with args is Codex's
// app-server daemon (`codex app-server …`), as IsCodexDaemon tells.
func codexDaemon(args []string) bool {
	if len(args) < 2 {
		return false
	}
	base := filepath.Base(args[0])
	return (base == "codex" || base == "codex.exe") && args[1] == "app-server"
}

// lookupEnv is the value of name in env (NAME=value words), "" when it is
// not there.
func lookupEnv(env []string, name string) string {
	for _, kv := range env {
		if len(kv) > len(name) && kv[len(name)] == '=' && kv[:len(name)] == name {
			return kv[len(name)+1:]
		}
	}
	return ""
}

// A seen is what a process's own details say: its folder, and the words
// and environment it started with.
type seen struct {
	cwd       string
	args, env []string
}

// codexClient is CodexClient over the processes procs and what detail
// reads of one: the one codex process, not the daemon nor another daemon,
// in folder with that CODEX_HOME, or 0 when there is none or more than
// one.
func codexClient(daemon int, folder, codexHome string, procs []kinfo, detail func(pid int) seen) int {
	if folder == "" {
		return 0
	}
	found := 0
	for _, k := range procs {
		if k.pid <= 0 || k.pid == daemon || k.zombie || k.comm != "codex" {
			continue
		}
		d := detail(k.pid)
		if d.cwd != folder || codexDaemon(d.args) || lookupEnv(d.env, "CODEX_HOME") != codexHome {
			continue
		}
		if found != 0 {
			return 0 // two TUIs in one folder: which one is not known
		}
		found = k.pid
	}
	return found
}
