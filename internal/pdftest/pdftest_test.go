//go:build !js

package pdftest

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ingest/pdf"
	"github.com/loomwork/loom/backend/sample"
	"github.com/loomwork/loom/internal/golden"
)

// The recording the WebAssembly tests serve is what the native reader
// reads from the sample paper today.
func TestRecordedExtractionIsCurrent(t *testing.T) {
	var data []byte
	for _, f := range sample.Papers() {
		if len(f.Data) > 4 && string(f.Data[:4]) == "%PDF" {
			data = f.Data
		}
	}
	require.NotEmpty(t, data)
	raw, err := pdf.Extract(data)
	require.NoError(t, err)
	got, err := json.Marshal(raw)
	require.NoError(t, err)
	const file = "testdata/budgeted-context.raw.json"
	if golden.Updating() {
		require.NoError(t, os.WriteFile(file, got, 0o644))
		return
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got), "run with -update after changing the extractor or the paper")
}
