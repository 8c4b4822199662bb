package proc

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"unsafe"
)

// A Mac's struct kinfo_proc, laid out by Go as by the kernel: x/sys/unix's
// ztypes_darwin_arm64.go (amd64's is the same) ExternProc and Eproc,
// copied with their pointers as uint64, so that a 64-bit Go compiler here
// lays them out as Darwin's compiler does on either Mac.
type macKinfoProc struct {
	Proc  macExternProc
	Eproc macEproc
}

type macTimeval struct {
	Sec  int64
	Usec int32
	_    [4]byte
}

type macExternProc struct {
	P_starttime macTimeval
	P_vmspace   uint64
	P_sigacts   uint64
	P_flag      int32
	P_stat      int8
	P_pid       int32
	P_oppid     int32
	P_dupfd     int32
	User_stack  uint64
	Exit_thread uint64
	P_debugger  int32
	Sigwait     int32
	P_estcpu    uint32
	P_cpticks   int32
	P_pctcpu    uint32
	P_wchan     uint64
	P_wmesg     uint64
	P_swtime    uint32
	P_slptime   uint32
	P_realtimer macItimerval
	P_rtime     macTimeval
	P_uticks    uint64
	P_sticks    uint64
	P_iticks    uint64
	P_traceflag int32
	P_tracep    uint64
	P_siglist   int32
	P_textvp    uint64
	P_holdcnt   int32
	P_sigmask   uint32
	P_sigignore uint32
	P_sigcatch  uint32
	P_priority  uint8
	P_usrpri    uint8
	P_nice      int8
	P_comm      [17]byte
	P_pgrp      uint64
	P_addr      uint64
	P_xstat     uint16
	P_acflag    uint16
	P_ru        uint64
}

type macItimerval struct {
	Interval macTimeval
	Value    macTimeval
}

type macEproc struct {
	Paddr   uint64
	Sess    uint64
	Pcred   macPcred
	Ucred   macUcred
	Vm      macVmspace
	Ppid    int32
	Pgid    int32
	Jobc    int16
	Tdev    int32
	Tpgid   int32
	Tsess   uint64
	Wmesg   [8]byte
	Xsize   int32
	Xrssize int16
	Xccount int16
	Xswrss  int16
	Flag    int32
	Login   [12]byte
	Spare   [4]int32
	_       [4]byte
}

type macVmspace struct {
	Dummy  int32
	Dummy2 uint64
	Dummy3 [5]int32
	Dummy4 [3]uint64
}

type macPcred struct {
	Pc_lock  [72]int8
	Pc_ucred uint64
	P_ruid   uint32
	P_svuid  uint32
	P_rgid   uint32
	P_svgid  uint32
	P_refcnt int32
	_        [4]byte
}

type macUcred struct {
	Ref     int32
	Uid     uint32
	Ngroups int16
	Groups  [16]uint32
}

// macProc is one process as a Mac's kernel would describe it.
type macProc struct {
	pid, ppid int
	comm      string
	sec       int64
	usec      int32
	zombie    bool
}

// record is p's struct kinfo_proc, in a Mac's bytes; the fields conch
// does not read hold what a live process's would (a uid, a tty, flags),
// so that a decoder reading the wrong place reads something else.
func (p macProc) record(t testing.TB) []byte {
	t.Helper()
	if unsafe.Sizeof(macKinfoProc{}) != darwinKinfoSize {
		t.Skipf("a %d-byte kinfo_proc: this is not a 64-bit computer, whose Go lays structs out as a Mac's kernel does", unsafe.Sizeof(macKinfoProc{}))
	}
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("a big-endian computer: a Mac's records are little-endian")
	}
	var k macKinfoProc
	k.Proc.P_starttime = macTimeval{Sec: p.sec, Usec: p.usec}
	k.Proc.P_flag = 0x4004
	k.Proc.P_stat = 2 // SRUN
	if p.zombie {
		k.Proc.P_stat = darwinZombie
	}
	k.Proc.P_pid = int32(p.pid)
	k.Proc.P_oppid = int32(p.ppid)
	k.Proc.P_rtime = macTimeval{Sec: 7, Usec: 250}
	k.Proc.P_priority, k.Proc.P_usrpri, k.Proc.P_nice = 31, 31, 0
	copy(k.Proc.P_comm[:darwinCommLen-1], p.comm)
	k.Eproc.Pcred.P_ruid, k.Eproc.Ucred.Uid, k.Eproc.Ucred.Ngroups = 501, 501, 3
	k.Eproc.Ppid = int32(p.ppid)
	k.Eproc.Pgid = int32(p.pid)
	k.Eproc.Tdev, k.Eproc.Tpgid = 0x10000003, int32(p.pid)
	copy(k.Eproc.Login[:], "person")
	return bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(&k)), unsafe.Sizeof(k)))
}

// A macKernel answers sysctl kern.proc.pid from the records it holds, as
// proc_darwin.go's look does from the kernel's.
type macKernel map[int][]byte

func (m macKernel) add(t testing.TB, ps ...macProc) {
	for _, p := range ps {
		m[p.pid] = p.record(t)
	}
}

func (m macKernel) look(pid int) (kinfo, bool) {
	b, ok := m[pid]
	if !ok {
		return kinfo{}, false
	}
	k, ok := darwinKinfo(b)
	return k, ok && k.pid == pid
}

// TestDarwinKinfo: each field conch reads is where a Mac's kernel puts it.
func TestDarwinKinfo(t *testing.T) {
	for _, p := range []macProc{
		{pid: 4242, ppid: 4100, comm: "claude", sec: 1_764_600_000, usec: 123_456},
		{pid: 99_999, ppid: 1, comm: "sixteen-letters!", sec: 1, usec: 999_999, zombie: true},
		{pid: 7, ppid: 0, comm: "", sec: 0, usec: 0},
	} {
		k, ok := darwinKinfo(p.record(t))
		want := kinfo{pid: p.pid, ppid: p.ppid, comm: p.comm, start: uint64(p.sec)*1_000_000 + uint64(p.usec), zombie: p.zombie}
		if !ok || k != want {
			t.Errorf("decoded %+v, %v; want %+v", k, ok, want)
		}
	}
	rec := macProc{pid: 1, comm: "launchd"}.record(t)
	if _, ok := darwinKinfo(rec[:darwinKinfoSize-1]); ok {
		t.Error("a record cut short decoded")
	}
	if _, ok := darwinKinfo(append(rec, 0)); ok {
		t.Error("a record too long decoded")
	}
	// kern.proc.all: records one after the other.
	all := append(macProc{pid: 1, comm: "launchd"}.record(t), macProc{pid: 2, ppid: 1, comm: "codex"}.record(t)...)
	if ks := darwinKinfos(append(all, 1, 2, 3)); len(ks) != 2 || ks[0].comm != "launchd" || ks[1].pid != 2 || ks[1].ppid != 1 {
		t.Errorf("kern.proc.all decoded as %+v", ks)
	}
}

// TestDarwinHookReplyRestsOnHarness: on a Mac, the conch a hook runs is
// started by a shell the harness spawns for it (`sh -c`), which exits
// within milliseconds; the reply rests on the harness above it, so it is
// alive for as long as the harness runs, and a stranger given its pid
// keeps nothing alive.
func TestDarwinHookReplyRestsOnHarness(t *testing.T) {
	const launchd, login, harness, hookShell = 1, 401, 512, 733
	m := macKernel{}
	m.add(t,
		macProc{pid: launchd, comm: "launchd", sec: 1_764_500_000},
		macProc{pid: login, ppid: launchd, comm: "zsh", sec: 1_764_590_000, usec: 10},
		macProc{pid: harness, ppid: login, comm: "claude", sec: 1_764_600_000, usec: 500_000},
		macProc{pid: hookShell, ppid: harness, comm: "sh", sec: 1_764_600_321, usec: 7},
	)
	// conch's parent is the hook's shell.
	pid := climb(hookShell, m.look, shell)
	if pid != harness {
		t.Fatalf("the reply rests on %d; want the harness %d (the hook's shell is %d)", pid, harness, hookShell)
	}
	start, ok := startOf(pid, m.look)
	if !ok || start != 1_764_600_000_500_000 {
		t.Fatalf("the harness's start: %d, %v", start, ok)
	}
	alive := func() bool { // as state's Reply.Alive asks
		got, ok := startOf(pid, m.look)
		return ok && (start == 0 || got == 0 || got == start)
	}
	delete(m, hookShell) // the hook is done
	if !alive() {
		t.Fatal("the reply reads as gone once the hook's shell exited; its harness still runs")
	}
	if _, ok := startOf(hookShell, m.look); ok {
		t.Fatal("the hook's shell is still there: the test shows nothing")
	}
	m.add(t, macProc{pid: harness, ppid: login, comm: "claude", sec: 1_764_600_000, usec: 500_000, zombie: true})
	if alive() {
		t.Error("the harness exited (a zombie) and the reply reads as alive")
	}
	m.add(t, macProc{pid: harness, ppid: 1, comm: "mdworker", sec: 1_764_700_000})
	if alive() {
		t.Error("a stranger given the harness's pid keeps the reply alive")
	}
	delete(m, harness)
	if alive() {
		t.Error("the harness is gone and the reply reads as alive")
	}
}

// TestDarwinClimb: the climb past shells, as Linux's over /proc.
func TestDarwinClimb(t *testing.T) {
	m := macKernel{}
	m.add(t,
		macProc{pid: 100, ppid: 1, comm: "codex"},
		macProc{pid: 101, ppid: 100, comm: "zsh"},  // Codex's shell tool: zsh -lc
		macProc{pid: 102, ppid: 101, comm: "bash"}, // which ran a script
		macProc{pid: 200, ppid: 1, comm: "conch"},  // a conch that wakes a chat
		macProc{pid: 201, ppid: 200, comm: "sh"},   // its wake_cmd's shell
		macProc{pid: 300, ppid: 1, comm: "sh"},     // a shell whose parent is launchd
		macProc{pid: 400, ppid: 1, comm: "a-harness-named"},
		macProc{pid: 401, ppid: 400, comm: "dash"},
		macProc{pid: 500, ppid: 999, comm: "fish"}, // its parent gone
		macProc{pid: 600, ppid: 601, comm: "sh"},
		macProc{pid: 601, ppid: 602, comm: "sh"},
		macProc{pid: 602, ppid: 603, comm: "sh"},
		macProc{pid: 603, ppid: 604, comm: "sh"},
		macProc{pid: 604, ppid: 1, comm: "node"},
	)
	for _, c := range []struct {
		ppid, want int
		why        string
	}{
		{102, 100, "past two shells to the harness"},
		{100, 100, "the harness itself"},
		{201, 201, "a wake_cmd's shell, not the conch that woke the chat, which exits at once"},
		{300, 300, "a shell launchd started"},
		{401, 400, "a harness of a longer name"},
		{500, 999, "a parent gone: what the shell said"},
		{600, 604, "four levels"},
		{999, 999, "no such process"},
	} {
		if got := climb(c.ppid, m.look, shell); got != c.want {
			t.Errorf("climb(%d) = %d, want %d: %s", c.ppid, got, c.want, c.why)
		}
	}
	if _, ok := startOf(0, m.look); ok {
		t.Error("pid 0 exists")
	}
}

// procargs2 is sysctl kern.procargs2 as a Mac's kernel writes it: argc,
// the program's path padded with NULs, the words, the environment, an
// empty string, then the kernel's own strings.
func procargs2(path string, args, env []string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(args)))
	b = append(b, path...)
	b = append(b, make([]byte, 8-len(path)%8)...)
	for _, a := range args {
		b = append(append(b, a...), 0)
	}
	for _, e := range env {
		b = append(append(b, e...), 0)
	}
	b = append(b, 0)
	return append(b, "executable_path="+path+"\x00ptr_munge=\x00main_stack=\x00"...)
}

func TestDarwinProcArgs(t *testing.T) {
	b := procargs2("/opt/homebrew/bin/codex", []string{"codex", "app-server", "", "--listen"}, []string{"CODEX_HOME=/Users/p/.codex", "PWD=/Users/p/src"})
	args, env := darwinProcArgs(b)
	if strings.Join(args, "|") != "codex|app-server||--listen" || strings.Join(env, "|") != "CODEX_HOME=/Users/p/.codex|PWD=/Users/p/src" {
		t.Errorf("args %q, env %q", args, env)
	}
	if !codexDaemon(args) || lookupEnv(env, "CODEX_HOME") != "/Users/p/.codex" || lookupEnv(env, "CODEX") != "" || lookupEnv(env, "PWD=") != "" {
		t.Errorf("read as daemon %v, CODEX_HOME %q", codexDaemon(args), lookupEnv(env, "CODEX_HOME"))
	}
	if args, env := darwinProcArgs(b[:40]); strings.Join(args, "|") != "codex" || env != nil {
		t.Errorf("cut short: args %q, env %q", args, env)
	}
	for _, short := range [][]byte{nil, {1, 0, 0}, {1, 0, 0, 0, '/', 'x'}} {
		if args, env := darwinProcArgs(short); args != nil || env != nil {
			t.Errorf("%q: args %q, env %q", short, args, env)
		}
	}
}

// vnodePathInfo is proc_info's struct proc_vnodepathinfo for a process
// working in cwd (its vnode_info holding what a real one does).
func vnodePathInfo(cwd string) []byte {
	b := make([]byte, darwinVnodePathInfoSize)
	for i := range darwinVnodeInfoSize {
		b[i] = byte(i*7 + 1)
	}
	copy(b[darwinVnodeInfoSize:], cwd)
	copy(b[darwinVnodeInfoSize+darwinPathMax+darwinVnodeInfoSize:], "/")
	return b
}

// TestDarwinCodexClient: the TUI a Codex daemon serves is found among the
// Mac's processes as on Linux among /proc's.
func TestDarwinCodexClient(t *testing.T) {
	const folder, home = "/Users/p/src/app", "/Users/p/.codex"
	type proc struct {
		macProc
		cwd       string
		args, env []string
	}
	procs := []proc{
		{macProc{pid: 1, comm: "launchd"}, "/", nil, nil},
		{macProc{pid: 10, ppid: 20, comm: "codex"}, folder, []string{"codex", "app-server"}, []string{"CODEX_HOME=" + home}},
		{macProc{pid: 11, ppid: 10, comm: "codex"}, folder, []string{"/opt/homebrew/bin/codex", "app-server", "--helper"}, []string{"CODEX_HOME=" + home}},
		{macProc{pid: 20, ppid: 1, comm: "codex"}, folder, []string{"codex"}, []string{"CODEX_HOME=" + home}},
		{macProc{pid: 30, ppid: 1, comm: "codex"}, "/Users/p/src/other", []string{"codex"}, []string{"CODEX_HOME=" + home}},
		{macProc{pid: 40, ppid: 1, comm: "codex"}, folder, []string{"codex"}, []string{"CODEX_HOME=/tmp/other"}},
		{macProc{pid: 50, ppid: 1, comm: "zsh"}, folder, []string{"-zsh"}, []string{"CODEX_HOME=" + home}},
		{macProc{pid: 60, ppid: 1, comm: "codex", zombie: true}, folder, nil, nil},
	}
	kernel := func(ps []proc) (all []byte, detail func(int) seen) {
		byPID := map[int]proc{}
		for _, p := range ps {
			all = append(all, p.record(t)...)
			byPID[p.pid] = p
		}
		return all, func(pid int) seen {
			p := byPID[pid]
			args, env := darwinProcArgs(procargs2("/usr/local/bin/codex", p.args, p.env))
			return seen{cwd: darwinCwd(vnodePathInfo(p.cwd)), args: args, env: env}
		}
	}
	all, detail := kernel(procs)
	if got := codexClient(10, folder, home, darwinKinfos(all), detail); got != 20 {
		t.Errorf("the TUI is %d; want 20", got)
	}
	if got := codexClient(10, "", home, darwinKinfos(all), detail); got != 0 {
		t.Errorf("no folder: %d", got)
	}
	all, detail = kernel(append(procs, proc{macProc{pid: 70, ppid: 1, comm: "codex"}, folder, []string{"codex", "resume"}, []string{"CODEX_HOME=" + home}}))
	if got := codexClient(10, folder, home, darwinKinfos(all), detail); got != 0 {
		t.Errorf("two TUIs in the folder: %d; want none", got)
	}
}

func TestDarwinCwd(t *testing.T) {
	if got := darwinCwd(vnodePathInfo("/Users/p/src")); got != "/Users/p/src" {
		t.Errorf("cwd %q", got)
	}
	full := vnodePathInfo(strings.Repeat("x", darwinPathMax))
	if got := darwinCwd(full); got != "" {
		t.Errorf("a path with no NUL: %q", got)
	}
	if got := darwinCwd(vnodePathInfo("/a")[:darwinVnodeInfoSize+10]); got != "" {
		t.Errorf("cut short: %q", got)
	}
}

func FuzzDarwinKinfo(f *testing.F) {
	f.Add(make([]byte, darwinKinfoSize))
	f.Add([]byte("short"))
	f.Fuzz(func(t *testing.T, b []byte) {
		k, ok := darwinKinfo(b)
		if ok != (len(b) == darwinKinfoSize) {
			t.Fatalf("%d bytes decoded: %v", len(b), ok)
		}
		if len(k.comm) > darwinCommLen || strings.IndexByte(k.comm, 0) >= 0 {
			t.Fatalf("comm %q", k.comm)
		}
		if n := len(darwinKinfos(b)); n != len(b)/darwinKinfoSize {
			t.Fatalf("%d records of %d bytes", n, len(b))
		}
	})
}

func FuzzDarwinProcArgs(f *testing.F) {
	f.Add(procargs2("/bin/codex", []string{"codex", "app-server"}, []string{"A=b"}))
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f, '/', 0, 'a', 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, '/', 0, 'a', 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		args, env := darwinProcArgs(b)
		if len(b) >= 4 && len(args) > max(int(int32(binary.LittleEndian.Uint32(b))), 0) {
			t.Fatalf("%d words past argc", len(args))
		}
		for _, s := range append(args, env...) {
			if strings.IndexByte(s, 0) >= 0 {
				t.Fatalf("a NUL in %q", s)
			}
		}
		for _, e := range env {
			if e == "" {
				t.Fatal("an empty variable")
			}
		}
		if cwd := darwinCwd(b); len(cwd) >= darwinPathMax || strings.IndexByte(cwd, 0) >= 0 {
			t.Fatalf("cwd %q", cwd)
		}
	})
}
