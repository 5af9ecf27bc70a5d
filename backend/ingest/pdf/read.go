//go:build !js

package pdf

import "github.com/loomwork/loom/backend/ingest/blocks"

// Read converts a PDF into blocks: Extract, then Layout. Its errors are
// the Err values of this package (possibly wrapped with details); their
// messages are meant to follow the file's name.
func Read(data []byte, opts ...Option) (*blocks.Doc, error) {
	raw, err := Extract(data, opts...)
	if err != nil {
		return nil, err
	}
	return Layout(raw)
}
