//go:build !js

package code

// noPageParser: only the web edition parses through its page.
func noPageParser() bool { return false }
