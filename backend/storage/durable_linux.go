//go:build linux

package storage

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// SyncFileSystem writes to disk everything the file system holding dir
// has in memory (syncfs(2)). It reports false, and does nothing, where
// there is no syncfs.
func SyncFileSystem(dir string) (bool, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return true, fmt.Errorf("sync %s: %w", dir, err)
	}
	defer unix.Close(fd)
	if err := unix.Syncfs(fd); err != nil {
		return true, fmt.Errorf("sync %s: %w", dir, err)
	}
	return true, nil
}

// Sync makes the files just written under the workspace durable
// before the graph transaction that names them commits: one syncfs of the
// workspace's file system, which also covers the folders' new entries and
// the vector log, instead of an fsync per file (thousands per ingest).
func Sync(dir string, _ []string) error {
	_, err := SyncFileSystem(dir)
	return err
}
