//go:build linux

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncFS writes to disk everything the file system holding dir has in
// memory (syncfs), so that the kernel's write-back of what an ingest just
// wrote does not run during the timed open and questions.
func syncFS(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
