//go:build js

package offline

import "errors"

// The WebAssembly edition does not compile the 8 MB table into its binary:
// it fetches the table file and calls FromBytes or FromReader.
func embeddedTable() ([]byte, error) {
	return nil, errors.New("offline embedding table is not compiled into the WebAssembly build: fetch " + TableFile + " and use offline.FromBytes")
}
