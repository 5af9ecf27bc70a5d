package concepts_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/loomwork/loom/backend"
	"github.com/stretchr/testify/require"
)

// markupChars and markupWords are what a concept name must never show:
// markup and code characters, table pipes and rules, URLs; words only HTML
// uses; and HTML words that are English too ("span", "class") when two
// meet in one name or make it up alone.
var (
	markupChars = regexp.MustCompile("[<>|{}\\[\\]`*#=\\\\]|---|://|\\(\\)|__|\\w_\\w|&[a-z]+;")
	htmlOnly    = map[string]bool{"div": true, "href": true, "src": true, "nbsp": true, "td": true, "tr": true, "br": true, "img": true,
		"tbody": true, "thead": true, "colspan": true, "rowspan": true, "px": true, "http": true, "https": true, "www": true}
	htmlToo = map[string]bool{"span": true, "class": true, "style": true, "amp": true, "quot": true, "lt": true, "gt": true,
		"id": true, "width": true, "height": true, "align": true, "li": true, "ul": true, "ol": true, "table": true, "font": true}
	nameWord = regexp.MustCompile(`[\pL\pN]+(-[\pL\pN]+)*`)
)

// badName says why a concept name is not one a person would use, or "".
func badName(name string) string {
	if strings.TrimSpace(name) == "" {
		return "empty"
	}
	if !strings.ContainsFunc(name, unicode.IsLetter) {
		return "no letters"
	}
	if m := markupChars.FindString(name); m != "" {
		return "markup " + m
	}
	words := nameWord.FindAllString(strings.ToLower(name), -1)
	weak := 0
	for _, w := range words {
		if htmlOnly[w] {
			return "markup word " + w
		}
		if htmlToo[w] {
			weak++
		}
	}
	if weak >= 2 || weak > 0 && weak == len(words) {
		return "markup words"
	}
	return ""
}

func TestBadNamePredicate(t *testing.T) {
	for _, bad := range []string{"", "1024 5.33 1.95 17.20", "span class · div class", "| a | b |", "see https://x.org", "foo_bar()", "x=1", "**bold**", "span", "div", "td nbsp", "&amp;", "a --- b"} {
		require.NotEmpty(t, badName(bad), bad)
	}
	for _, good := range []string{"Concept Node Creation Threshold", "fracture risk · vitamin d", "Spanish classes", "Tree traversal", "C++ templates", "mhc class · cell adhesion", "rlm-style context window", "97th centile", "amp-activated protein kinase"} {
		require.Empty(t, badName(good), good)
	}
}

// Sections of tables, markup and code, ingested through the real engine,
// found concepts with clean names (the reported junk: "1024 5.33 1.95
// 17.20", "span class · div class").
func TestJunkSectionConceptNamesAreClean(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"benchmark.md": "# Table 3\n\n| 1024 | 5.33 | 1.95 | 17.20 |\n|---|---|---|---|\n| 2048 | 6.10 | 2.01 | 18.40 |\n",
		"widget.md":    "# 1.2.3\n\n<div class=\"x\"><span class=\"y\">&nbsp;</span></div>\n<span class=\"a\"></span><div class=\"b\"></div>\n",
		"snippet.md":   "# Listing 4\n\n```python\nfoo_bar(x=1)\nvalue = compute_all(1e-3)\n```\n\nSee https://example.com/a/b and /usr/local/bin/loom.\n",
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	ctx := context.Background()
	wb, err := backend.Open(ctx, t.TempDir())
	require.NoError(t, err)
	defer wb.Close()
	rep, err := wb.Ingest(ctx, []string{dir}, backend.IngestOptions{})
	require.NoError(t, err)
	require.Empty(t, rep.Errors)
	g, err := wb.Graph(ctx)
	require.NoError(t, err)
	var names []string
	for _, n := range g.Nodes {
		if n.Kind == "concept" {
			names = append(names, n.Label)
			require.Empty(t, badName(n.Label), n.Label)
			require.NotContains(t, n.Label, "Table 3")
		}
	}
	t.Logf("%d concepts: %q", len(names), names)
	require.ElementsMatch(t, []string{"benchmark", "widget", "snippet"}, names, "junk headings and text: named by the file")
}

// The concept names of the reference documents and of SciFact, ingested
// through the real engine into fresh workspaces: none has no letters or a
// markup token. Skips without ../shared; SciFact (~10 s) skips with -short.
func TestCorpusConceptNamesAreClean(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared")
	corpora := []struct{ name, path string }{
		{"reference", filepath.Join(shared, "reference")},
		{"scifact", filepath.Join(shared, "eval", "scifact", "corpus.jsonl")},
	}
	for _, c := range corpora {
		t.Run(c.name, func(t *testing.T) {
			if _, err := os.Stat(c.path); err != nil {
				t.Skipf("%s is not here", c.path)
			}
			if c.name == "scifact" && testing.Short() {
				t.Skip("ingests SciFact")
			}
			ctx := context.Background()
			wb, err := backend.Open(ctx, t.TempDir())
			require.NoError(t, err)
			defer wb.Close()
			rep, err := wb.Ingest(ctx, []string{c.path}, backend.IngestOptions{})
			require.NoError(t, err)
			require.Empty(t, rep.Errors)
			g, err := wb.Graph(ctx)
			require.NoError(t, err)
			var names, bad []string
			for _, n := range g.Nodes {
				if n.Kind != "concept" {
					continue
				}
				names = append(names, n.Label)
				if why := badName(n.Label); why != "" {
					bad = append(bad, why+": "+n.Label)
				}
			}
			require.NotEmpty(t, names)
			if out := os.Getenv("LOOM_CONCEPT_NAMES_OUT"); out != "" {
				require.NoError(t, os.WriteFile(out+"."+c.name, []byte(strings.Join(names, "\n")+"\n"), 0o644))
			}
			r := rand.New(rand.NewPCG(1, 2))
			sample := make([]string, 0, 20)
			for _, i := range r.Perm(len(names))[:min(20, len(names))] {
				sample = append(sample, names[i])
			}
			t.Logf("%s: %d concepts, %d bad names; sample: %q", c.name, len(names), len(bad), sample)
			if len(bad) > 0 {
				t.Errorf("%d of %d concept names are not names a person would use, e.g. %q", len(bad), len(names), bad[:min(20, len(bad))])
			}
		})
	}
}
