//go:build linux

package backend

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// syncStored makes the files just written under the workspace durable
// before the graph transaction that names them commits: one syncfs(2) of
// the workspace's file system, which also covers the folders' new entries
// and the vector log, instead of an fsync per file (thousands per ingest).
func syncStored(dir string, _ []string) error {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer unix.Close(fd)
	if err := unix.Syncfs(fd); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
