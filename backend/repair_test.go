//go:build !js

package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
)

// problems lists the doctor's problem findings as "part: detail".
func problems(c *Checkup) []string {
	var out []string
	for _, f := range c.Findings {
		if f.Status == StatusProblem {
			out = append(out, f.Part+": "+f.Detail)
		}
	}
	return out
}

// healthyWorkspace ingests the fixture (and asks a question that makes
// summaries) and closes the workspace; it returns the folder, the notes
// folder and the stats.
func healthyWorkspace(t *testing.T) (string, string, Stats) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	notes := copyFixtureWithLongSection(t)
	wb := openBolt(t, dir)
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	_, err = wb.Query(ctx, QueryRequest{Question: "How is the loadable budget calculated from the window and the output reservation?", Budget: 300, Level: "summary"})
	require.NoError(t, err)
	st, err := wb.Stats(ctx)
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	c, err := Doctor(ctx, dir)
	require.NoError(t, err)
	require.Empty(t, problems(c), "a healthy workspace has no problem")
	require.Equal(t, "ok", c.Store)
	return dir, notes, st
}

// anyText returns the hash of an ingested section's text, and its node.
func anyText(t *testing.T, dir string) (string, model.ContentNode) {
	t.Helper()
	s, err := graphdb.OpenBolt(filepath.Join(dir, GraphDir), graphdb.BoltOptions{ReadOnly: true})
	require.NoError(t, err)
	defer s.Close()
	snap, err := s.Load(context.Background())
	require.NoError(t, err)
	for _, n := range snap.Nodes {
		if n.Kind == model.KindInput && strings.HasPrefix(n.Ref, "budget.md") {
			return n.ContentHash, n
		}
	}
	t.Fatal("no section of budget.md")
	return "", model.ContentNode{}
}

// Each kind of damage: the doctor names it, repair mends it in place, and
// the doctor then finds nothing wrong.
func TestDoctorFindsDamageAndRepairMendsItInPlace(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		damage func(t *testing.T, dir, notes string)
		part   string
		lost   bool // repair cannot restore everything
	}{
		{"an index cache that disagrees with its store", func(t *testing.T, dir, _ string) {
			// What ingest --prune once left: a cache of the store's
			// generation holding documents the store lost.
			ix, _ := index.LoadGraphCache(filepath.Join(dir, "index.cache"), index.AnyGeneration)
			require.NotNil(t, ix)
			ix.Docs["d-ghost"] = &model.Document{ID: "d-ghost", Key: "/gone.md", Path: "gone.md"}
			require.NoError(t, ix.SaveCache(filepath.Join(dir, "index.cache"), ix.Saved))
		}, "index cache", false},
		{"a damaged index cache", func(t *testing.T, dir, _ string) {
			p := filepath.Join(dir, "index.cache")
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			b[len(b)/2] ^= 0xff
			require.NoError(t, os.WriteFile(p, b, 0o644))
		}, "index cache", false},
		{"a missing text whose file still holds it", func(t *testing.T, dir, _ string) {
			h, _ := anyText(t, dir)
			require.NoError(t, os.Remove(filepath.Join(dir, "content", h[:2], h)))
		}, "texts", false},
		{"a damaged text whose file still holds it", func(t *testing.T, dir, _ string) {
			h, _ := anyText(t, dir)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "content", h[:2], h), []byte("scrambled"), 0o644))
		}, "texts", false},
		{"a missing text whose file changed", func(t *testing.T, dir, notes string) {
			h, _ := anyText(t, dir)
			require.NoError(t, os.Remove(filepath.Join(dir, "content", h[:2], h)))
			require.NoError(t, os.WriteFile(filepath.Join(notes, "budget.md"), []byte("# Budget\n\nRewritten.\n"), 0o644))
		}, "texts", true},
		{"a vector log with a damaged end", func(t *testing.T, dir, _ string) {
			logs, _ := filepath.Glob(filepath.Join(dir, "vectors", "*.vec"))
			require.NotEmpty(t, logs)
			f, err := os.OpenFile(logs[0], os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.Write([]byte("\x40\x00half a record"))
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}, "vectors offline_minilm-l6-m2v-256", false},
		{"missing vectors", func(t *testing.T, dir, _ string) {
			logs, _ := filepath.Glob(filepath.Join(dir, "vectors", "*.vec"))
			require.NotEmpty(t, logs)
			require.NoError(t, os.Remove(logs[0]))
		}, "vectors", false},
		{"workspace facts that disagree with the store", func(t *testing.T, dir, _ string) {
			s, err := graphdb.OpenBolt(filepath.Join(dir, GraphDir), graphdb.BoltOptions{})
			require.NoError(t, err)
			m, err := s.Meta(ctx)
			require.NoError(t, err)
			m.Documents += 3
			m.Tokens = 1 << 40
			_, err = s.Apply(ctx, graphdb.Write{Meta: m})
			require.NoError(t, err)
			require.NoError(t, s.Close())
		}, "workspace facts", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, notes, st := healthyWorkspace(t)
			tc.damage(t, dir, notes)
			c, err := Doctor(ctx, dir)
			require.NoError(t, err)
			found := false
			for _, f := range c.Findings {
				if f.Part == tc.part && f.Status == StatusProblem {
					found = true
					assert.NotEmpty(t, f.Repair, "a problem says what repair does")
				}
			}
			require.True(t, found, "the doctor finds %s in %q: %v", tc.name, tc.part, c.Findings)

			rep, err := Repair(ctx, dir, RepairOptions{})
			require.NoError(t, err)
			assert.False(t, rep.Salvaged)
			assert.Equal(t, dir, rep.Workspace)
			if tc.lost {
				assert.NotEmpty(t, rep.Lost, "what could not be restored is said")
				assert.NotEmpty(t, problems(rep.After), "the doctor still sees the lost text")
				return
			}
			assert.Empty(t, rep.Lost)
			assert.Empty(t, problems(rep.After), "after repair: %v", rep.Actions)

			wb := openBolt(t, dir)
			defer wb.Close()
			after, err := wb.Stats(ctx)
			require.NoError(t, err)
			assert.Equal(t, st.Documents, after.Documents)
			res, err := wb.Query(ctx, QueryRequest{Question: "How is the loadable budget calculated?", Budget: 2000})
			require.NoError(t, err)
			assert.Empty(t, res.Warnings)
		})
	}
}

// A damaged store is salvaged into a new workspace (from the store read
// around the damage, or from the index cache when that is as new), which
// works; the damaged one is kept.
func TestRepairSalvagesADamagedStoreIntoANewWorkspace(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		keepCache bool
		damage    func(t *testing.T, path string)
	}{
		{"garbage, from the index cache", true, func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path, []byte("not a database"), 0o644))
		}},
		{"a page zeroed, from the store", false, func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			zeroed := 0
			for p := 4; (p+1)*4096 <= len(b) && zeroed < 1; p++ {
				spoiled := append([]byte(nil), b...)
				clear(spoiled[p*4096 : (p+1)*4096])
				require.NoError(t, os.WriteFile(path, spoiled, 0o644))
				// A page in use, whose loss leaves something to salvage (not
				// the root of everything).
				_, rep, err := graphdb.CheckPages(filepath.Dir(path))
				if err == nil && rep.BadPages > 0 {
					if snap, _, err := graphdb.Salvage(filepath.Dir(path)); err == nil && len(snap.Documents) > 0 {
						zeroed++
					}
				}
			}
			require.Equal(t, 1, zeroed, "a page in use was zeroed")
		}},
		{"missing, from the index cache", true, func(t *testing.T, path string) {
			require.NoError(t, os.RemoveAll(filepath.Dir(path)))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, st := largerWorkspace(t)
			if !tc.keepCache {
				require.NoError(t, os.Remove(filepath.Join(dir, "index.cache")))
			}
			tc.damage(t, filepath.Join(dir, GraphDir, graphdb.BoltFile))
			c, err := Doctor(ctx, dir)
			require.NoError(t, err)
			require.NotEmpty(t, problems(c))
			before := filesOf(t, dir)

			rep, err := Repair(ctx, dir, RepairOptions{Replace: true})
			require.NoError(t, err)
			assert.True(t, rep.Salvaged)
			assert.Equal(t, dir, rep.Workspace)
			assert.Empty(t, problems(rep.After), "the salvaged workspace is sound: %v", rep.After.Findings)
			require.NotEmpty(t, rep.DamagedCopy)
			kept := map[string]string{}
			for p, v := range before {
				kept[strings.Replace(p, dir, rep.DamagedCopy, 1)] = v
			}
			assert.Equal(t, kept, filesOf(t, rep.DamagedCopy), "the damaged workspace is kept as it was")

			wb := openBolt(t, dir)
			defer wb.Close()
			got, err := wb.Stats(ctx)
			require.NoError(t, err)
			if tc.keepCache {
				assert.Equal(t, st.Documents, got.Documents, "the index cache holds the whole graph")
				assert.Empty(t, rep.Lost)
			} else {
				assert.Positive(t, got.Documents)
				assert.LessOrEqual(t, got.Documents, st.Documents)
			}
			res, err := wb.Query(ctx, QueryRequest{Question: "How is the loadable budget calculated?", Budget: 2000})
			require.NoError(t, err)
			assert.Positive(t, res.Loaded)
		})
	}
}

// largerWorkspace holds 60 notes, so that one page of its store holds a
// part of them only.
func largerWorkspace(t *testing.T) (string, Stats) {
	t.Helper()
	ctx := context.Background()
	notes := filepath.Join(t.TempDir(), "notes")
	require.NoError(t, os.MkdirAll(notes, 0o755))
	for i := 0; i < 60; i++ {
		w := noteWords[i%len(noteWords)]
		text := fmt.Sprintf("# Note %d on %s\n\nHow the %s shapes the budget and the window.\n\n## More on %s\n\nThe %s and the manifest, note %d.\n", i, w, w, w, w, i)
		require.NoError(t, os.WriteFile(filepath.Join(notes, fmt.Sprintf("n%02d.md", i)), []byte(text), 0o644))
	}
	dir := t.TempDir()
	wb := openBolt(t, dir)
	_, err := wb.Ingest(ctx, []string{notes}, IngestOptions{})
	require.NoError(t, err)
	st, err := wb.Stats(ctx)
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	return dir, st
}

// TestSummariesAreNotCountedAsSections: a summary made for a question is
// kept as an analysis node of its source's document; the catalog the
// model reads and the doctor's count of sections leave it out.
func TestSummariesAreNotCountedAsSections(t *testing.T) {
	ctx := context.Background()
	dir, _, _ := healthyWorkspace(t) // its question made summaries
	wb := openBolt(t, dir)
	docs, err := wb.Documents(ctx)
	require.NoError(t, err)
	sections := map[string]int{}
	total := 0
	for _, d := range docs {
		sections[d.Path] = d.Nodes
		total += d.Nodes
	}
	require.Positive(t, sections["budget.md"])
	res, err := wb.Query(ctx, QueryRequest{Question: "How is the loadable budget calculated from the window?", Budget: 4000, NoTouch: true})
	require.NoError(t, err)
	cat, err := wb.Tools().Catalog(ctx) // the model's catalog tool
	require.NoError(t, err)
	colls, err := wb.Collections(ctx)
	require.NoError(t, err)
	require.NoError(t, wb.Close())
	assert.True(t, strings.HasPrefix(cat.Text, fmt.Sprintf("%d documents, %d sections, ", len(docs), total)), cat.Text)
	inCollections := 0
	for _, c := range colls {
		inCollections += c.Sections
	}
	assert.Equal(t, total, inCollections)
	listed := regexp.MustCompile(`([^:;\[\]]+?) \((\d+) sections?\)`).FindAllStringSubmatch(res.Catalog, -1)
	require.NotEmpty(t, listed, res.Catalog)
	for _, m := range listed {
		assert.Equal(t, strconv.Itoa(sections[strings.TrimSpace(m[1])]), m[2], "%s in %s", m[1], res.Catalog)
	}

	c, err := Doctor(ctx, dir)
	require.NoError(t, err)
	var store string
	for _, f := range c.Findings {
		if strings.Contains(f.Detail, "concepts at generation") {
			store = f.Detail
		}
	}
	assert.Regexp(t, fmt.Sprintf(`documents, %d sections and \d+ summar(y|ies), `, total), store)
}
