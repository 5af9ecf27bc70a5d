//go:build !js

package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/graphdb"
)

// A store that kept the summaries newer ones replaced (Loom before
// 2026-11-29 left them, one per section and level for each change of
// method): the doctor notes them, repair deletes them, and the newest
// summary is the one still read.
func TestDoctorNotesReplacedSummariesAndRepairDeletesThem(t *testing.T) {
	ctx := context.Background()
	dir, _, _ := healthyWorkspace(t)

	s, err := graphdb.OpenBolt(filepath.Join(dir, GraphDir), graphdb.BoltOptions{})
	require.NoError(t, err)
	snap, err := s.Load(ctx)
	require.NoError(t, err)
	var newest *model.ContentNode
	for i := range snap.Nodes {
		if n := &snap.Nodes[i]; n.Kind == model.KindAnalysis {
			newest = n
			break
		}
	}
	require.NotNil(t, newest, "the question made a summary")
	var doc model.Document
	for _, d := range snap.Documents {
		if d.ID == newest.DocID {
			doc = d
		}
	}
	var olds []string
	meta := snap.Meta // the facts as the write that kept them counted them
	for k, by := range []string{"extractive/v1", "extractive/v2"} {
		old := *newest
		old.ID = "n-" + model.ShortHash(newest.Source, newest.Level, by)
		old.Provenance = newest.Level + " of " + newest.Source + " by " + by
		old.Created = newest.Created.Add(-time.Duration(2-k) * time.Hour)
		meta.ContentNodes, meta.Edges, meta.Tokens = meta.ContentNodes+1, meta.Edges+1, meta.Tokens+int64(old.Tokens)
		_, err = s.Apply(ctx, graphdb.Write{Documents: []graphdb.DocWrite{{Doc: doc, Nodes: []model.ContentNode{old},
			Edges: []model.Edge{{Kind: model.EdgeDerived, From: old.ID, To: newest.Source, Weight: 1, Created: old.Created}}}}, Meta: meta})
		require.NoError(t, err)
		olds = append(olds, old.ID)
	}
	require.NoError(t, s.Close())

	c, err := Doctor(ctx, dir)
	require.NoError(t, err)
	assert.Empty(t, problems(c), "harmless: a note, not a problem")
	assert.ElementsMatch(t, olds, c.Superseded)
	noted := false
	for _, f := range c.Findings {
		if f.Part == "summaries" && f.Status == StatusNote {
			noted = true
			assert.Contains(t, f.Detail, "2 summaries that newer ones of the same sections replaced")
			assert.Equal(t, "deletes them", f.Repair)
		}
	}
	assert.True(t, noted, "%v", c.Findings)

	rep, err := Repair(ctx, dir, RepairOptions{})
	require.NoError(t, err)
	assert.Contains(t, rep.Actions, "deleted 2 summaries that newer ones of the same sections replaced")
	assert.Empty(t, rep.After.Superseded)
	assert.Empty(t, problems(rep.After))

	wb := openBolt(t, dir)
	defer wb.Close()
	g, err := wb.ExportGraph(ctx, false)
	require.NoError(t, err)
	var ids []string
	for _, n := range g.ContentNodes {
		if n.Kind == model.KindAnalysis && n.Source == newest.Source && n.Level == newest.Level {
			ids = append(ids, n.ID)
		}
	}
	assert.Equal(t, []string{newest.ID}, ids, "the newest stays")
}

// A document changed and ingested again leaves its old sections' texts
// stored, named by no node: the doctor notes them, repair deletes them,
// and every section still reads.
func TestRepairDeletesTheTextsNoSectionNames(t *testing.T) {
	ctx := context.Background()
	dir, notes, _ := healthyWorkspace(t)
	c, err := Doctor(ctx, dir)
	require.NoError(t, err)
	require.Zero(t, c.UnnamedTexts, "a fresh workspace names every text: %v", c.Findings)

	wb := openBolt(t, dir)
	require.NoError(t, os.WriteFile(filepath.Join(notes, "budget.md"), []byte("# Token budget\n\nThe budget is rewritten: the window less the reservation.\n"), 0o644))
	rep, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	require.NoError(t, wb.Close())

	c, err = Doctor(ctx, dir)
	require.NoError(t, err)
	assert.Empty(t, problems(c))
	require.Positive(t, c.UnnamedTexts, "budget.md's old sections: %v", c.Findings)
	noted := false
	for _, f := range c.Findings {
		if f.Part == "stored texts" {
			noted = true
			assert.Equal(t, StatusNote, f.Status)
			assert.Contains(t, f.Detail, fmt.Sprintf("%d stored texts (", c.UnnamedTexts))
			assert.Equal(t, "deletes them", f.Repair)
		}
	}
	assert.True(t, noted)

	r, err := Repair(ctx, dir, RepairOptions{})
	require.NoError(t, err)
	deleted := false
	for _, a := range r.Actions {
		deleted = deleted || strings.HasPrefix(a, fmt.Sprintf("deleted %d stored texts (", c.UnnamedTexts))
	}
	assert.True(t, deleted, "%q", r.Actions)
	assert.Zero(t, r.After.UnnamedTexts)
	assert.Empty(t, problems(r.After), "every section's text is still there")

	wb = openBolt(t, dir)
	defer wb.Close()
	res, err := wb.Query(ctx, QueryRequest{Question: "How is the budget rewritten?", Budget: 2000})
	require.NoError(t, err)
	assert.Contains(t, res.Prompt, "The budget is rewritten")
}

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
