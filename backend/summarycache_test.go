//go:build !js

package backend

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
)

// A summary an older version of the extractive method made is made again
// (its rules changed: a lead-in that lost its formula no longer ends one);
// a model's summary stands. A summary replaced is deleted from the store.
func TestAnOlderExtractiveSummaryIsMadeAgain(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	writeTree(t, notes, map[string]string{"momentum.md": "# Momentum\n\n## Why momentum works\n\n" +
		strings.Repeat("Gradient descent with momentum keeps a share of the previous step, so the iterates roll through narrow valleys instead of bouncing between their walls. ", 6) +
		"\n\nThe step size and the momentum together set how fast the error falls on a quadratic.\n"})
	dir := t.TempDir()
	wb := openBolt(t, dir)
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)

	summary := func() string {
		t.Helper()
		res, err := wb.Query(ctx, QueryRequest{Question: "Why does momentum help gradient descent in narrow valleys?", Budget: 2000, Level: "summary", NoTouch: true})
		require.NoError(t, err)
		_, after, ok := strings.Cut(res.Prompt, " · summary\n")
		require.True(t, ok, "a summary block:\n%s", res.Prompt)
		text, _, _ := strings.Cut(after, "\n\n")
		return text
	}
	made := summary()

	record := func(by, text string) {
		t.Helper()
		wb.ws.Lock()
		defer wb.ws.Unlock()
		var src *model.ContentNode
		for _, n := range wb.ws.CurrentIndex().Nodes {
			if n.Ref == "momentum.md#why-momentum-works" && n.Kind == model.KindInput {
				src = n
			}
		}
		require.NotNil(t, src)
		h := storage.Hash(text)
		wb.ws.Texts().Stage(h, text)
		now := time.Now()
		a := model.ContentNode{ID: "n-" + model.ShortHash(src.ID, "summary", by), DocID: src.DocID, Ref: src.Ref,
			LineStart: src.LineStart, LineEnd: src.LineEnd, ContentHash: h, Kind: model.KindAnalysis, ContentType: "prose",
			Tokens: 12, Created: now, LastAccess: now, Provenance: "summary of " + src.ID + " by " + by, Source: src.ID, Level: "summary"}
		wb.ws.RecordAnalysis(a, model.Edge{Kind: model.EdgeDerived, From: a.ID, To: src.ID, Weight: 1, Created: now})
	}
	record("extractive/v2", "In vectorized form, momentum is")
	assert.Equal(t, made, summary(), "the older method's summary is made again")
	record("ollama/llama3.2", "Momentum carries a share of the last step, so descent rolls along narrow valleys.")
	assert.Equal(t, "Momentum carries a share of the last step, so descent rolls along narrow valleys.", summary(), "a model's summary stands")

	// Each summary replaced the one before it: the store keeps the last
	// alone, not three summaries of one section at one level.
	require.NoError(t, wb.Close())
	wb = openBolt(t, dir)
	defer wb.Close()
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	var kept []string
	for _, n := range g.ContentNodes {
		if n.Kind == model.KindAnalysis && n.Level == "summary" && n.Ref == "momentum.md#why-momentum-works" {
			kept = append(kept, n.Provenance)
		}
	}
	require.Len(t, kept, 1, "%q", kept)
	assert.True(t, strings.HasSuffix(kept[0], " by ollama/llama3.2"), kept[0])
	assert.Equal(t, "Momentum carries a share of the last step, so descent rolls along narrow valleys.", summary(), "the model's summary, after a reopen")
}
