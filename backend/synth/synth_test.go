package synth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/tokens"
)

// readTree maps every file under dir (slash paths) to its contents.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	require.NoError(t, err)
	return out
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	require.NoError(t, Generate(a, 500, 7))
	require.NoError(t, Generate(b, 500, 7))
	require.NoError(t, Generate(c, 500, 8))
	ta, tb, tc := readTree(t, a), readTree(t, b), readTree(t, c)
	assert.Equal(t, ta, tb, "same nodes and seed, same bytes")
	assert.NotEqual(t, ta, tc, "another seed, another corpus")
	assert.Contains(t, ta, "d00/n0000.md")
}

func TestGenerateWritesExactlyTheNodesAsked(t *testing.T) {
	count := tokens.Default().Count
	opts := ingest.Options{CountTokens: count}
	for _, nodes := range []int{MinSections, 79, 1000} {
		dir := t.TempDir()
		require.NoError(t, Generate(dir, nodes, 1))
		sizes := FileSections(nodes, 1)
		total := 0
		for name, text := range readTree(t, dir) {
			docs, err := ingest.Parse("/"+name, name, "synth", []byte(text), opts)
			require.NoError(t, err)
			require.Len(t, docs, 1)
			docs[0].Chunk(opts)
			for _, s := range docs[0].Sections {
				assert.Equal(t, 1, s.Parts, "%s: a section is never split", name)
				words := len(strings.Fields(s.Text))
				assert.True(t, words >= 60 && words <= 260, "%s: %d words in a section", name, words)
			}
			total += len(docs[0].Sections)
		}
		assert.Equal(t, nodes, total, "ingest makes one content node a heading")
		sum := 0
		for _, k := range sizes {
			sum += k
			assert.GreaterOrEqual(t, k, MinSections)
		}
		assert.Equal(t, nodes, sum)
	}
	assert.Error(t, Generate(t.TempDir(), 0, 1))
}

func TestSectionsCarryTheirTopicMarker(t *testing.T) {
	text := File(3, 40, 1)
	assert.True(t, strings.HasPrefix(text, "# "))
	assert.Equal(t, 39, strings.Count(text, "\n## "))
	assert.Equal(t, 40, strings.Count(text, "tags: topic"))
}

func TestQuestions(t *testing.T) {
	q := Questions(50, 1)
	assert.Len(t, q, 50)
	assert.Equal(t, q, Questions(50, 1))
	assert.NotEqual(t, q, Questions(50, 2))
	assert.Equal(t, q[:10], Questions(10, 1), "a prefix of a longer list")
	distinct := map[string]bool{}
	for _, s := range q {
		distinct[s] = true
		assert.Contains(t, s, "(tags: topic")
	}
	assert.Greater(t, len(distinct), 45)
}

func TestVocabulary(t *testing.T) {
	seen := map[string]bool{}
	for topic := range Topics {
		words := TopicWords(topic)
		assert.Len(t, words, 30)
		for _, w := range words {
			assert.False(t, seen[w], "%q is in two topics", w)
			seen[w] = true
		}
	}
	assert.Equal(t, "topic07", Marker(7))
}
