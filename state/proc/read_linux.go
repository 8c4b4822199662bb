package proc

import "syscall"

// maxProcFile bounds what is read of one /proc file: a command line or an
// environment past it is not conch's to judge by.
const maxProcFile = 1 << 20

// read is one /proc file, whole, through plain system calls: the hot path
// asks for a process's stat at every step, and an os.File would register
// the descriptor with the runtime's poller for one read. A /proc file says
// no size, so it is read until it says its end.
func read(name string) ([]byte, bool) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	data := make([]byte, 0, 512)
	for {
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, false
		case n == 0:
			return data, true
		}
		data = data[:len(data)+n]
		if len(data) > maxProcFile {
			return nil, false
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
