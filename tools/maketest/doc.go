// Package maketest checks the Makefile's own behaviour where no build is
// needed to see it (make -n prints what a target would run without running
// it). It has no code, only tests; `go test ./...` runs them.
package maketest
