//go:build !js

package storage

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// syncEach makes files durable: an fsync of each, then of each folder
// holding one, for the entry (folders cannot be synced on Windows, where a
// rename is durable with its file): Sync where there is no syncfs.
func syncEach(paths []string) error {
	var mu sync.Mutex
	var errs []error
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	syncOne := func(p string) {
		f, err := os.Open(p)
		if err != nil {
			fail(err)
			return
		}
		if err := f.Sync(); err != nil {
			fail(err)
		}
		f.Close()
	}
	dirs := map[string]bool{}
	for _, p := range paths {
		dirs[filepath.Dir(p)] = true
	}
	var wg sync.WaitGroup
	jobs := make(chan string)
	for range 8 {
		wg.Go(func() {
			for p := range jobs {
				syncOne(p)
			}
		})
	}
	for _, p := range paths {
		jobs <- p
	}
	if runtime.GOOS != "windows" {
		for d := range dirs {
			jobs <- d
		}
	}
	close(jobs)
	wg.Wait()
	return errors.Join(errs...)
}
