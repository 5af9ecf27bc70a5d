//go:build js

package storage

// SyncFileSystem does nothing and reports false: there is no syncfs here.
func SyncFileSystem(string) (bool, error) { return false, nil }

// Sync: the WebAssembly edition keeps its workspace in memory
// (frontend/src/web/memfs.ts), where there is no disk cache to flush.
func Sync(string, []string) error { return nil }
