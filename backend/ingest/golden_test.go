package ingest

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/loomwork/loom/backend/tokens"
	"github.com/loomwork/loom/internal/golden"
	"github.com/stretchr/testify/require"
)

const sectionsGolden = "testdata/sections.golden"

// goldenRoots are the corpora whose Parse+Chunk output is pinned: this
// package's fixtures, the repository's testdata and the shared reference
// documents and SciFact corpus (those two skipped when ../shared is absent).
var goldenRoots = []struct{ label, dir string }{
	{"ingest", "testdata"},
	{"repo", filepath.Join("..", "..", "testdata")},
	{"shared", filepath.Join("..", "..", "..", "shared", "reference")},
	{"shared-eval", filepath.Join("..", "..", "..", "shared", "eval", "scifact")},
}

// goldenOptions are the settings each corpus is cut with: the defaults, and
// small sections so that paragraph, sentence and word cutting all run on
// ordinary prose; with the real counter and with the byte estimate.
func goldenOptions() []struct {
	name string
	opts Options
} {
	bpe := tokens.Default().Count
	return []struct {
		name string
		opts Options
	}{
		{"cl100k-512", Options{CountTokens: bpe}},
		{"cl100k-64", Options{CountTokens: bpe, MaxSectionTokens: 64, OverlapTokens: 16}},
		{"cl100k-16", Options{CountTokens: bpe, MaxSectionTokens: 16, OverlapTokens: 4}},
		{"estimate-512", Options{}},
		{"estimate-24", Options{MaxSectionTokens: 24, OverlapTokens: -1}},
	}
}

// goldenFiles lists label:relative-path → file for every corpus file found.
func goldenFiles(t testing.TB) map[string]string {
	files := map[string]string{}
	for _, root := range goldenRoots {
		if _, err := os.Stat(root.dir); err != nil {
			continue
		}
		err := filepath.WalkDir(root.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			ext := filepath.Ext(p)
			if root.label == "shared-eval" && d.Name() != "corpus.jsonl" || root.label != "shared-eval" && ext != ".md" && ext != ".txt" {
				return nil
			}
			rel, _ := filepath.Rel(root.dir, p)
			files[root.label+":"+filepath.ToSlash(rel)] = p
			return nil
		})
		require.NoError(t, err)
	}
	return files
}

// sectionsDigest is the SHA-256 of everything Parse and Chunk make of one
// file: titles, hashes, and every section field that leaves the package.
func sectionsDigest(path string, data []byte, opts Options) string {
	h := sha256.New()
	docs, err := Parse("/abs/"+path, path, "golden", data, opts)
	if err != nil {
		fmt.Fprintf(h, "error: %v\n", err)
	}
	enc := json.NewEncoder(h)
	for i := range docs {
		docs[i].Chunk(opts)
		if err := enc.Encode(docs[i]); err != nil {
			panic(err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func readGolden(t *testing.T) map[string]string {
	f, err := os.Open(sectionsGolden)
	require.NoError(t, err)
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// The digest is the last field; a file's name may hold spaces.
		sp := strings.LastIndexByte(line, ' ')
		require.Positive(t, sp, "bad line in %s: %q", sectionsGolden, sc.Text())
		want[line[:sp]] = line[sp+1:]
	}
	require.NoError(t, sc.Err())
	return want
}

// TestParseAndChunkKeepTheirOutputOnTheCorpora pins the sections (refs,
// slugs, heading paths, line numbers, text, links, tokens) that Parse and
// Chunk make of every corpus file, under several settings, so that work on
// robustness cannot move what ordinary documents become. Rewrite the
// expectation with -update only for a change that means to alter output.
func TestParseAndChunkKeepTheirOutputOnTheCorpora(t *testing.T) {
	files := goldenFiles(t)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var (
		mu  sync.Mutex
		got = map[string]string{}
		wg  sync.WaitGroup
	)
	for _, name := range names {
		data, err := os.ReadFile(files[name])
		require.NoError(t, err)
		ref := strings.SplitN(name, ":", 2)[1]
		for _, o := range goldenOptions() {
			if strings.HasSuffix(ref, ".jsonl") && o.name != "cl100k-512" {
				continue // the eval corpus is cut with the defaults only
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				d := sectionsDigest(ref, data, o.opts)
				mu.Lock()
				got[o.name+"/"+name] = d
				mu.Unlock()
			}()
		}
	}
	wg.Wait()

	if golden.Updating() {
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		b.WriteString("# SHA-256 of Parse+Chunk output per settings/corpus:file (golden_test.go; go test -run Corpora -update)\n")
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %s\n", k, got[k])
		}
		require.NoError(t, os.WriteFile(sectionsGolden, []byte(b.String()), 0o644))
		return
	}
	want := readGolden(t)
	for key, digest := range want {
		g, ok := got[key]
		if !ok {
			if strings.Contains(key, "/shared") {
				continue // ../shared is not beside this checkout
			}
			t.Errorf("%s: corpus file missing", key)
			continue
		}
		if g != digest {
			t.Errorf("%s: Parse+Chunk output changed", key)
		}
	}
	for key := range got {
		if _, ok := want[key]; !ok {
			t.Errorf("%s: no expectation in %s (run with -update if the file is new)", key, sectionsGolden)
		}
	}
}
