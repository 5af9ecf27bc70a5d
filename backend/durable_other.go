//go:build !linux && !js

package backend

// SyncFileSystem does nothing and reports false: there is no syncfs here.
func SyncFileSystem(string) (bool, error) { return false, nil }

// syncStored makes the files just written durable before the graph
// transaction that names them commits, one by one.
func syncStored(_ string, paths []string) error { return syncEach(paths) }
