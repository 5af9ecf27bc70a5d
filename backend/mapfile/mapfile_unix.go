//go:build unix

package mapfile

import (
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
