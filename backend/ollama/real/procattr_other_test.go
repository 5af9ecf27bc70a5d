//go:build !linux

package real_test

import "os/exec"

// orphanGuard does nothing here: only Linux can tie a child's life to its
// parent's.
func orphanGuard(*exec.Cmd) {}
