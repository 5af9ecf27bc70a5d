//go:build !unix

package main

// maxRSS is unknown where getrusage is missing.
func maxRSS() uint64 { return 0 }
