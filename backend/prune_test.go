//go:build !js

package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
)

// libraryShape is what a workspace holds, in terms a fresh ingest of the
// same files must reproduce exactly: documents and their sections by
// reference with content hashes, and the structural edges. Concepts depend
// on the order files arrived in, so they are checked by their invariants
// instead (checkConcepts).
type libraryShape struct {
	Docs  []string // id path hash
	Nodes []string // id doc ref hash tokens
	Edges []string // kind from to, parent and links only
}

func shapeOf(docs []model.Document, nodes []model.ContentNode, edges []model.Edge) libraryShape {
	var s libraryShape
	for _, d := range docs {
		s.Docs = append(s.Docs, d.ID+" "+d.Path+" "+d.Hash)
	}
	for _, n := range nodes {
		if n.Kind == model.KindAnalysis {
			continue // summaries come from questions, not files
		}
		s.Nodes = append(s.Nodes, fmt.Sprintf("%s %s %s %s %d", n.ID, n.DocID, n.Ref, n.ContentHash, n.Tokens))
	}
	for _, e := range edges {
		if e.Kind == model.EdgeParent || e.Kind == model.EdgeLinks {
			s.Edges = append(s.Edges, string(e.Kind)+" "+e.From+" "+e.To)
		}
	}
	sort.Strings(s.Docs)
	sort.Strings(s.Nodes)
	sort.Strings(s.Edges)
	return s
}

// storeShape reads the store itself (not the index).
func storeShape(t *testing.T, wb *Workbench) (libraryShape, model.Meta) {
	t.Helper()
	wb.ws.Lock()
	snap, err := wb.ws.Load(context.Background())
	wb.ws.Unlock()
	require.NoError(t, err)
	checkConcepts(t, snap.Concepts, snap.Edges, snap.Nodes)
	return shapeOf(snap.Documents, snap.Nodes, snap.Edges), snap.Meta
}

// indexShape reads the working index (what the cache holds).
func indexShape(t *testing.T, wb *Workbench) libraryShape {
	t.Helper()
	wb.ws.Lock()
	defer wb.ws.Unlock()
	ix, err := wb.ws.Index(context.Background())
	require.NoError(t, err)
	snap := ix.Snapshot(wb.ws.Meta())
	return shapeOf(snap.Documents, snap.Nodes, snap.Edges)
}

// checkConcepts: every concept is about at least one section, and every
// about or related edge joins things that exist.
func checkConcepts(t *testing.T, concepts []model.Concept, edges []model.Edge, nodes []model.ContentNode) {
	t.Helper()
	have := map[string]bool{}
	for _, c := range concepts {
		have[c.ID] = true
	}
	nodeIDs := map[string]bool{}
	for _, n := range nodes {
		nodeIDs[n.ID] = true
	}
	about := map[string]int{}
	for _, e := range edges {
		switch e.Kind {
		case model.EdgeAbout:
			require.True(t, nodeIDs[e.From], "about edge from a missing section %s", e.From)
			require.True(t, have[e.To], "about edge to a missing concept %s", e.To)
			about[e.To]++
		case model.EdgeRelated:
			require.True(t, have[e.From] && have[e.To], "related edge to a missing concept %v", e)
		}
	}
	for id := range have {
		require.Positive(t, about[id], "concept %s is about nothing", id)
	}
}

// words for the generated notes: few enough that sections share concepts.
var noteWords = strings.Fields(`budget window tokens manifest summary essence concept graph hop
staleness novelty relevance ranking signal purpose provenance trust density catalog prompt`)

// TestEveryIngestMatchesAFreshIngestOfTheSameFolder applies seeded random
// sequences of adds, changes, deletions and renames to a folder, ingesting
// after each step with or without --prune, and checks that the store, the
// stats, the working index and, after every cache is dropped, the store
// again hold exactly what a fresh ingest of the same files holds.
func TestEveryIngestMatchesAFreshIngestOfTheSameFolder(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { checkIngestSequence(t, seed, 14) })
	}
}

func checkIngestSequence(t *testing.T, seed uint64, steps int) {
	ctx := context.Background()
	rng := seed * 0x9e3779b97f4a7c15
	next := func(n int) int {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	note := func(title string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", title)
		for s := 0; s < 1+next(3); s++ {
			fmt.Fprintf(&b, "## %s %s\n\n", noteWords[next(len(noteWords))], noteWords[next(len(noteWords))])
			for w := 0; w < 8+next(20); w++ {
				b.WriteString(noteWords[next(len(noteWords))] + " ")
			}
			b.WriteString("\n\n")
			if next(4) == 0 {
				fmt.Fprintf(&b, "See [another](n%d.md).\n\n", next(12))
			}
		}
		return b.String()
	}

	lib := filepath.Join(t.TempDir(), "lib")
	require.NoError(t, os.MkdirAll(filepath.Join(lib, "sub"), 0o755))
	files := map[string]string{} // the folder now
	for i := 0; i < 6; i++ {
		files[fmt.Sprintf("n%d.md", i)] = note(fmt.Sprint("Note ", i))
	}
	write := func() {
		entries, _ := filepath.Glob(filepath.Join(lib, "*.md"))
		subs, _ := filepath.Glob(filepath.Join(lib, "sub", "*.md"))
		for _, p := range append(entries, subs...) {
			rel, _ := filepath.Rel(lib, p)
			if _, ok := files[filepath.ToSlash(rel)]; !ok {
				require.NoError(t, os.Remove(p))
			}
		}
		for name, text := range files {
			require.NoError(t, os.WriteFile(filepath.Join(lib, filepath.FromSlash(name)), []byte(text), 0o644))
		}
	}
	write()

	opts := []Option{WithEmbedder(hashEmbedder{}), WithConceptThreshold(0.6)}
	dir := t.TempDir()
	wb := openBolt(t, dir, opts...)
	defer func() { wb.Close() }()
	kept := map[string]string{} // what the workspace should hold
	for step := 0; step < steps; step++ {
		if step > 0 {
			for k := 0; k < 1+next(3); k++ {
				names := make([]string, 0, len(files))
				for n := range files {
					names = append(names, n)
				}
				sort.Strings(names)
				switch op := next(4); {
				case op == 0 || len(names) < 3: // add
					name := fmt.Sprintf("n%d.md", 6+next(8))
					if next(3) == 0 {
						name = "sub/" + name
					}
					files[name] = note("Added " + name)
				case op == 1: // change
					name := names[next(len(names))]
					files[name] += "\n## Later " + noteWords[next(len(noteWords))] + "\n\nmore " + noteWords[next(len(noteWords))] + "\n"
				case op == 2: // delete
					delete(files, names[next(len(names))])
				default: // rename
					from := names[next(len(names))]
					to := fmt.Sprintf("r%d.md", next(10))
					if _, taken := files[to]; !taken {
						files[to] = files[from]
						delete(files, from)
					}
				}
			}
			write()
		}
		prune := next(2) == 0
		rep, err := wb.Ingest(ctx, []string{lib}, IngestOptions{Prune: prune})
		require.NoError(t, err)
		require.Empty(t, rep.Errors, "step %d", step)
		for name, text := range files {
			kept[name] = text
		}
		if prune {
			for name := range kept {
				if _, ok := files[name]; !ok {
					delete(kept, name)
				}
			}
		}

		// A fresh ingest of exactly the files the workspace should hold,
		// from a folder of the same name.
		freshLib := filepath.Join(t.TempDir(), "lib")
		for name, text := range kept {
			p := filepath.Join(freshLib, filepath.FromSlash(name))
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		}
		fresh := openBolt(t, t.TempDir(), opts...)
		_, err = fresh.Ingest(ctx, []string{freshLib}, IngestOptions{})
		require.NoError(t, err)
		want, wantMeta := storeShape(t, fresh)
		require.NoError(t, fresh.Close())

		what := fmt.Sprintf("step %d (prune %v)", step, prune)
		got, meta := storeShape(t, wb)
		require.Equal(t, want, got, "%s: the store", what)
		require.Equal(t, want, indexShape(t, wb), "%s: the working index", what)
		st, err := wb.Stats(ctx)
		require.NoError(t, err)
		require.Equal(t, []int{wantMeta.Documents, wantMeta.ContentNodes}, []int{st.Documents, st.ContentNodes}, "%s: the stats", what)
		require.Equal(t, wantMeta.Tokens, st.Tokens, "%s: the stats' tokens", what)
		require.Equal(t, meta.Edges, st.Edges, "%s: the stats agree with the store", what)

		if step%3 == 2 { // drop every cache: the store alone must say the same
			require.NoError(t, wb.Close())
			for _, f := range []string{"index.cache", "search.cache"} {
				os.Remove(filepath.Join(dir, f))
			}
			caches, _ := filepath.Glob(filepath.Join(dir, "vectors", "*.rows"))
			for _, f := range caches {
				os.Remove(f)
			}
			wb = openBolt(t, dir, opts...)
			require.Equal(t, want, indexShape(t, wb), "%s: the index rebuilt from the store", what)
			// A plain re-ingest finds nothing to do: the store, not a
			// stale cache, said what is there.
			rep, err := wb.Ingest(ctx, []string{lib}, IngestOptions{})
			require.NoError(t, err)
			require.Zero(t, rep.Added+rep.Updated, "%s: a re-ingest after dropping the caches", what)
		}
	}
}
