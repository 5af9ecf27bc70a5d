//go:build unix

package main

import (
	"runtime"
	"syscall"
)

// maxRSS is the process's peak resident set in bytes (getrusage; Linux
// reports kilobytes, macOS bytes).
func maxRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return uint64(ru.Maxrss)
	}
	return uint64(ru.Maxrss) << 10
}
