//go:build js

package backend

// syncStored: the WebAssembly edition keeps its workspace in memory
// (frontend/src/web/memfs.ts), where there is no disk cache to flush.
func syncStored(string, []string) error { return nil }
