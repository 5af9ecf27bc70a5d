//go:build !unix

package mapfile

import "os"

// mapFile declines: Open reads the file instead.
func mapFile(*os.File, int, bool) ([]byte, bool, error) { return nil, false, nil }

func unmap([]byte) error { return nil }

// readFile declines: ReadFile uses os.ReadFile.
func readFile(string) ([]byte, bool, error) { return nil, false, nil }
