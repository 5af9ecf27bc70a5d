//go:build !js

package offline

import (
	"embed"
	"errors"
	"io/fs"
)

// tableDir holds the generated table. "all:" keeps the pattern valid when
// the directory has only its .gitkeep, so the package builds before the table
// is generated and New reports ErrTableMissing instead.
//
//go:embed all:table
var tableDir embed.FS

func embeddedTable() ([]byte, error) {
	b, err := tableDir.ReadFile("table/" + TableFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrTableMissing
	}
	return b, err
}
