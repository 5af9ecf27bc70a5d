//go:build js

package backend

// checkNotLocked has nothing to probe in the WebAssembly build: there is no
// bolt file, and graphdb.OpenSnapshot refuses a second open of the same
// workspace within the program. Two browser tabs are two programs; keeping
// them apart (e.g. with the Web Locks API) is the page's job.
func checkNotLocked(path string) error { return nil }
