//go:build !js

package graphdb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSalvageOfAnIntactStoreReadsEverything(t *testing.T) {
	w := sampleWrite(30, 6, 0)
	dir := newBolt(t, &w)
	s, err := OpenBolt(dir, BoltOptions{})
	require.NoError(t, err)
	// Removals and replacements: what was removed must not come back.
	_, err = s.Apply(context.Background(), Write{Remove: []string{"d-000003", "d-000004"}, Documents: sampleWrite(1, 3, 4000).Documents, Meta: w.Meta})
	require.NoError(t, err)
	want, err := s.Load(context.Background())
	require.NoError(t, err)
	require.NoError(t, s.Close())

	got, rep, err := Salvage(dir)
	require.NoError(t, err)
	assert.Zero(t, rep.Lost.Quads)
	assert.Zero(t, rep.BadPages)
	assert.True(t, rep.HasMeta)
	assert.Equal(t, want, got)
}

// Whatever damage the file took, salvage never panics; when pages are lost
// or cut off (as opposed to bytes changed inside them, which bolt cannot
// tell, having no checksums on data pages) it never invents anything:
// every document and section it returns is one the store held, attribute
// for attribute; and it still returns most of the graph.
func TestSalvageReadsAroundDamage(t *testing.T) {
	w := sampleWrite(60, 8, 0)
	dir := newBolt(t, &w)
	s, err := OpenBolt(dir, BoltOptions{})
	require.NoError(t, err)
	want, err := s.Load(context.Background())
	require.NoError(t, err)
	require.NoError(t, s.Close())
	good, err := os.ReadFile(filepath.Join(dir, BoltFile))
	require.NoError(t, err)
	docs := map[string]bool{}
	for _, d := range want.Documents {
		b, _ := jsonOf(d)
		docs[b] = true
	}
	nodes := map[string]bool{}
	for _, n := range want.Nodes {
		b, _ := jsonOf(n)
		nodes[b] = true
	}
	const ps = 4096
	pages := len(good) / ps
	recoveredMost := 0
	for _, d := range damages() {
		t.Run(d.name, func(t *testing.T) {
			ddir := filepath.Join(t.TempDir(), "graph")
			require.NoError(t, os.MkdirAll(ddir, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(ddir, BoltFile), d.do(append([]byte(nil), good...), ps), 0o644))
			got, rep, err := Salvage(ddir)
			if err != nil {
				assert.Contains(t, err.Error(), ddir, "an error names the file")
				return
			}
			if !strings.HasPrefix(d.name, "random bytes") {
				for _, doc := range got.Documents {
					b, _ := jsonOf(doc)
					assert.True(t, docs[b], "document %s was not in the store as salvaged", doc.ID)
				}
				for _, n := range got.Nodes {
					b, _ := jsonOf(n)
					assert.True(t, nodes[b], "section %s was not in the store as salvaged", n.ID)
				}
			}
			if len(got.Documents)*10 >= len(want.Documents)*8 {
				recoveredMost++
			}
			t.Logf("%d of %d documents, %d of %d sections; %d quads lost, %d bad pages", len(got.Documents), len(want.Documents),
				len(got.Nodes), len(want.Nodes), rep.Lost.Quads, rep.BadPages)
		})
	}
	t.Logf("%d pages; most of the graph recovered in %d of %d cases", pages, recoveredMost, len(damages()))
	assert.Greater(t, recoveredMost, len(damages())/2)
}

func jsonOf(v any) (string, error) {
	b, err := jsonMarshal(v)
	return fmt.Sprintf("%s", b), err
}

func TestCheckPagesFindsDamagedPages(t *testing.T) {
	w := sampleWrite(30, 6, 0)
	dir := newBolt(t, &w)
	pages, rep, err := CheckPages(dir)
	require.NoError(t, err)
	assert.Zero(t, rep.BadPages)
	assert.Positive(t, pages)
	path := filepath.Join(dir, BoltFile)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	found := 0
	for p := 2; p*4096 < len(b); p += 7 {
		spoiled := append([]byte(nil), b...)
		clear(spoiled[p*4096 : (p+1)*4096])
		require.NoError(t, os.WriteFile(path, spoiled, 0o644))
		_, rep, err := CheckPages(dir)
		require.NoError(t, err)
		if rep.BadPages > 0 {
			found++
			assert.NotEmpty(t, rep.Problems)
		}
	}
	assert.Positive(t, found, "a zeroed page in use is found")
}
