package proc

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestDarwinKinfoOffsets: kinfo.go's offsets are x/sys/unix's, which are
// the kernel's (cgo -godefs of <sys/sysctl.h>).
func TestDarwinKinfoOffsets(t *testing.T) {
	var k unix.KinfoProc
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"size", unsafe.Sizeof(k), darwinKinfoSize},
		{"p_starttime.tv_sec", unsafe.Offsetof(k.Proc.P_starttime) + unsafe.Offsetof(k.Proc.P_starttime.Sec), darwinStartSec},
		{"p_starttime.tv_usec", unsafe.Offsetof(k.Proc.P_starttime) + unsafe.Offsetof(k.Proc.P_starttime.Usec), darwinStartUsec},
		{"p_stat", unsafe.Offsetof(k.Proc.P_stat), darwinStat},
		{"p_pid", unsafe.Offsetof(k.Proc.P_pid), darwinPID},
		{"p_comm", unsafe.Offsetof(k.Proc.P_comm), darwinComm},
		{"len(p_comm)", unsafe.Sizeof(k.Proc.P_comm), darwinCommLen},
		{"e_ppid", unsafe.Offsetof(k.Eproc) + unsafe.Offsetof(k.Eproc.Ppid), darwinPPID},
	} {
		if c.got != c.want {
			t.Errorf("%s: x/sys/unix says %d, kinfo.go %d", c.name, c.got, c.want)
		}
	}
}

// TestDarwinSelf: the kernel's word on this test's own process.
func TestDarwinSelf(t *testing.T) {
	k, ok := look(os.Getpid())
	if !ok {
		t.Fatal("this process is not there")
	}
	comm := filepath.Base(os.Args[0])
	if len(comm) > darwinCommLen-1 {
		comm = comm[:darwinCommLen-1]
	}
	if k.comm != comm {
		t.Errorf("comm %q, want %q", k.comm, comm)
	}
	if k.ppid != os.Getppid() || k.zombie {
		t.Errorf("%+v; want parent %d, alive", k, os.Getppid())
	}
	if start, ok := Start(os.Getpid()); !ok || start == 0 || start != k.start {
		t.Errorf("Start: %d, %v", start, ok)
	}
	if _, ok := Start(1 << 30); ok {
		t.Error("a pid no process has exists")
	}
	if got := HarnessPID(os.Getpid()); got != os.Getpid() {
		t.Errorf("HarnessPID(a test, no shell) = %d", got)
	}
	if args := Args(os.Getpid()); len(args) != len(os.Args) || args[0] != os.Args[0] {
		t.Errorf("Args %q, want %q", args, os.Args)
	}
	wd, _ := os.Getwd()
	if got, _ := filepath.EvalSymlinks(wd); cwd(os.Getpid()) != got {
		t.Errorf("cwd %q, want %q", cwd(os.Getpid()), got)
	}
}
