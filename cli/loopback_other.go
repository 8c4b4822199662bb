//go:build !unix

package cli

import (
	"io"
	"net"
	"time"
)

// dialLoopback connects to host on this computer's loopback (state.LocalURL
// took only such a host); here through net's dialer.
func dialLoopback(host string, timeout time.Duration) (io.ReadWriteCloser, error) {
	conn, err := net.DialTimeout("tcp", host, timeout)
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(timeout))
	return conn, nil
}
