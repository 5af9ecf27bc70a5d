package ingest

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThePageReadsWhatTheEngineReads: the web edition's page offers the
// files the engine parses (frontend/src/lib/upload.ts keeps the list; a
// file the page refused would never reach the engine, and one the engine
// refused would be offered for nothing).
func TestThePageReadsWhatTheEngineReads(t *testing.T) {
	src, err := os.ReadFile("../../frontend/src/lib/upload.ts")
	require.NoError(t, err)
	list := regexp.MustCompile(`(?s)readableExtensions = \[(.*?)\]`).FindSubmatch(src)
	require.NotNil(t, list, "upload.ts declares readableExtensions")
	var page []string
	for _, m := range regexp.MustCompile(`'([^']+)'`).FindAllSubmatch(list[1], -1) {
		if e := strings.ToLower(string(m[1])); !slices.Contains(page, e) {
			page = append(page, e)
		}
	}
	slices.Sort(page)
	engine := slices.DeleteFunc(Extensions(), func(e string) bool { return e == ".jsonl" }) // BEIR corpora: the CLI's, not a drop's
	assert.Equal(t, engine, page)
}
