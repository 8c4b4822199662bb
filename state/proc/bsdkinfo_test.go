package proc

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"unsafe"
)

// bsdKinfoProc is FreeBSD's struct kinfo_proc (<sys/user.h>) on its
// 64-bit systems, pointers as uint64, up to ki_comm, then the rest of its
// KINFO_PROC_SIZE: laid out by a 64-bit Go compiler as FreeBSD's compiler
// does.
type bsdKinfoProc struct {
	Structsize, Layout                                    int32
	Args, Paddr, Addr, Tracep, Textvp, Fd, Vmspace, Wchan uint64
	Pid, Ppid, Pgid, Tpgid, Sid, Tsid                     int32
	Jobc, SpareShort1                                     int16
	TdevFreebsd11                                         uint32
	Siglist, Sigmask, Sigignore, Sigcatch                 [16]byte
	Uid, Ruid, Svuid, Rgid, Svgid                         uint32
	Ngroups, SpareShort2                                  int16
	Groups                                                [16]uint32
	Size                                                  uint64
	Rssize, Swrss, Tsize, Dsize, Ssize                    int64
	Xstat, Acflag                                         uint16
	Pctcpu, Estcpu, Slptime, Swtime, Cow                  uint32
	Runtime                                               uint64
	Start, Childtime                                      struct{ Sec, Usec int64 }
	Flag, Kiflag                                          int64
	Traceflag                                             int32
	Stat, Nice, Lock, Rqindex                             int8
	OncpuOld, LastcpuOld                                  uint8
	Tdname                                                [17]byte
	Wmesg                                                 [9]byte
	Login                                                 [18]byte
	Lockname                                              [9]byte
	Comm                                                  [20]byte
	Rest                                                  [freebsdKinfoSize - 467]byte
}

func (p macProc) freebsdRecord(t testing.TB) []byte {
	t.Helper()
	if unsafe.Sizeof(bsdKinfoProc{}) != freebsdKinfoSize || binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("not a 64-bit little-endian computer, whose Go lays structs out as FreeBSD's amd64 and arm64 do")
	}
	k := bsdKinfoProc{Structsize: freebsdKinfoSize, Layout: 1, Pid: int32(p.pid), Ppid: int32(p.ppid), Pgid: int32(p.pid),
		Uid: 1001, Ruid: 1001, Ngroups: 1, Runtime: 12345, Stat: 2, Traceflag: 0}
	k.Start.Sec, k.Start.Usec = p.sec, int64(p.usec)
	k.Childtime.Sec = 3
	if p.zombie {
		k.Stat = freebsdZombie
	}
	copy(k.Tdname[:], "main")
	copy(k.Login[:], "person")
	copy(k.Comm[:freebsdCommLen-1], p.comm)
	return bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(&k)), unsafe.Sizeof(k)))
}

// TestFreeBSDKinfo: each field conch reads is where FreeBSD's kernel puts
// it, and the climb to the harness goes past a hook's shell there too.
func TestFreeBSDKinfo(t *testing.T) {
	p := macProc{pid: 31337, ppid: 900, comm: "nineteen-letters-ok", sec: 1_764_600_000, usec: 42}
	k, ok := freebsdKinfo(p.freebsdRecord(t))
	if want := (kinfo{pid: p.pid, ppid: p.ppid, comm: p.comm, start: 1_764_600_000_000_042}); !ok || k != want {
		t.Errorf("decoded %+v, %v; want %+v", k, ok, want)
	}
	if _, ok := freebsdKinfo(p.freebsdRecord(t)[:100]); ok {
		t.Error("a record cut short decoded")
	}
	recs := map[int][]byte{
		10: macProc{pid: 10, ppid: 1, comm: "claude", sec: 5}.freebsdRecord(t),
		11: macProc{pid: 11, ppid: 10, comm: "sh", sec: 6}.freebsdRecord(t),
		12: macProc{pid: 12, ppid: 1, comm: "claude", sec: 5, zombie: true}.freebsdRecord(t),
	}
	look := func(pid int) (kinfo, bool) {
		b, ok := recs[pid]
		if !ok {
			return kinfo{}, false
		}
		return freebsdKinfo(b)
	}
	if got := climb(11, look, shell); got != 10 {
		t.Errorf("a hook's reply rests on %d; want the harness 10", got)
	}
	if _, ok := startOf(12, look); ok {
		t.Error("a zombie is alive")
	}
}

func TestNulWords(t *testing.T) {
	for in, want := range map[string]string{
		"codex\x00app-server\x00": "codex|app-server",
		"codex\x00\x00x\x00":      "codex||x",
		"cut":                     "cut",
		"":                        "",
	} {
		if got := strings.Join(nulWords([]byte(in)), "|"); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	if !codexDaemon(nulWords([]byte("/usr/local/bin/codex\x00app-server\x00--listen\x00"))) {
		t.Error("the daemon's words are not the daemon's")
	}
}
