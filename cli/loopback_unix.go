//go:build unix

package cli

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"strconv"
	"syscall"
	"time"
)

// dialLoopback connects to host ("127.0.0.1:4096", "localhost:4096",
// "[::1]:4096") on this computer's loopback, with plain system calls:
// net's dialer and resolver, linked into conch, would cost every command
// its start-up (a tenth more of the binary's code) for the one open
// session a wake sends a prompt into. Reads and writes end at timeout.
func dialLoopback(host string, timeout time.Duration) (io.ReadWriteCloser, error) {
	name, portText, err := net.SplitHostPort(host)
	if err != nil {
		return nil, err
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port <= 0 || port > 65535 {
		return nil, fmt.Errorf("%s: no port", host)
	}
	if name == "localhost" {
		name = "127.0.0.1"
	}
	ip, err := netip.ParseAddr(name)
	if err != nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("%s is not this computer's loopback", host)
	}
	family, sa := syscall.AF_INET, syscall.Sockaddr(&syscall.SockaddrInet4{Port: port, Addr: ip.As4()})
	if ip.Is6() && !ip.Is4In6() {
		family, sa = syscall.AF_INET6, &syscall.SockaddrInet6{Port: port, Addr: ip.As16()}
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	syscall.CloseOnExec(fd)
	tv := syscall.NsecToTimeval(timeout.Nanoseconds())
	for _, opt := range []int{syscall.SO_RCVTIMEO, syscall.SO_SNDTIMEO} {
		if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, opt, &tv); err != nil {
			syscall.Close(fd)
			return nil, os.NewSyscallError("setsockopt", err)
		}
	}
	for {
		err = syscall.Connect(fd, sa)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("connect %s: %w", host, err)
	}
	return os.NewFile(uintptr(fd), host), nil
}
