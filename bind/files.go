package bind

import (
	"strings"

	"github.com/loomwork/loom/backend/ingest"
)

// ReadableFiles is the pattern of the desktop app's file dialog: every
// extension the engine reads (a BEIR corpus, .jsonl, is the CLI's, as in
// the web edition's list), in lower and upper case, since the dialog
// matches a pattern's case.
func ReadableFiles() string {
	var pats []string
	for _, ext := range ingest.Extensions() {
		if ext == ".jsonl" {
			continue
		}
		pats = append(pats, "*"+ext)
		if up := strings.ToUpper(ext); up != ext {
			pats = append(pats, "*"+up)
		}
	}
	return strings.Join(pats, ";")
}
