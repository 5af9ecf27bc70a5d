//go:build unix

package mapfile

import (
	"io/fs"
	"os"
	"syscall"
)

func mapFile(f *os.File, size int, private bool) ([]byte, bool, error) {
	prot, flags := syscall.PROT_READ, syscall.MAP_SHARED
	if private {
		prot, flags = syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, size, prot, flags)
	return data, true, err
}

func unmap(data []byte) error { return syscall.Munmap(data) }

func readFile(path string) ([]byte, bool, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, true, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, true, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, false, nil // a folder, a pipe: os.ReadFile's answers
	}
	size := int(st.Size)
	if size == 0 {
		return nil, false, nil // maybe a file the kernel makes as it is read
	}
	b := make([]byte, size)
	n := 0
	for n < size {
		m, err := syscall.Read(fd, b[n:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, true, &fs.PathError{Op: "read", Path: path, Err: err}
		case m == 0: // shorter than it was
			return b[:n], true, nil
		}
		n += m
	}
	return b, true, nil
}
