//go:build !linux && !js

package storage

// SyncFileSystem does nothing and reports false: there is no syncfs here.
func SyncFileSystem(string) (bool, error) { return false, nil }

// Sync makes the files just written durable before the graph
// transaction that names them commits, one by one.
func Sync(_ string, paths []string) error { return syncEach(paths) }
