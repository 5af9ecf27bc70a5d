package ingest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/internal/golden"
)

// vaultDir is a small Obsidian vault written for these tests: nested
// folders, two notes named "Meeting notes", front matter of several
// shapes (and one malformed), every kind of wiki link and embed, links in
// code that must not count, a .obsidian folder to leave alone.
const vaultDir = "testdata/vault"

// parseVault walks and parses the vault as an ingest would.
func parseVault(t *testing.T) (WalkResult, map[string]Document) {
	t.Helper()
	walked := Walk([]string{vaultDir})
	require.Empty(t, walked.Errors)
	docs := map[string]Document{}
	for _, f := range walked.Files {
		data, err := ReadFile(f, Options{})
		require.NoError(t, err)
		parsed, err := Parse(f.Abs, f.Path, f.Collection, data, Options{})
		require.NoError(t, err, f.Path)
		require.Len(t, parsed, 1)
		docs[f.Path] = parsed[0]
	}
	return walked, docs
}

// TestVaultParsesAsGolden pins what every note of the vault becomes: its
// title, what it says of itself, and each section's lines and links.
func TestVaultParsesAsGolden(t *testing.T) {
	walked, docs := parseVault(t)
	var b strings.Builder
	for _, f := range walked.Files {
		d := docs[f.Path]
		fmt.Fprintf(&b, "%s\n  title: %s\n", d.Path, d.Title)
		m := d.Meta
		for _, field := range []struct {
			name   string
			values []string
		}{{"aliases", m.Aliases}, {"tags", m.Tags}, {"authors", m.Authors}, {"year", []string{m.Year}}} {
			if strings.Join(field.values, "") != "" {
				fmt.Fprintf(&b, "  %s: %s\n", field.name, strings.Join(field.values, " | "))
			}
		}
		for _, s := range d.Sections {
			fmt.Fprintf(&b, "  L%d-%d %s\n", s.LineStart, s.LineEnd, s.Ref)
			for _, l := range s.Links {
				fmt.Fprintf(&b, "    -> %s\n", l)
			}
		}
	}
	golden.Equal(t, filepath.Join("testdata", "vault.golden"), []byte(b.String()))
}

func TestVaultNotes(t *testing.T) {
	walked, docs := parseVault(t)

	t.Run("the .obsidian folder and attachments are left out", func(t *testing.T) {
		assert.Equal(t, 1, walked.Hidden, ".obsidian")
		require.Len(t, walked.Skipped, 1)
		assert.Contains(t, walked.Skipped[0].Path, "diagram.png")
		for p := range docs {
			assert.NotContains(t, p, ".obsidian")
		}
		assert.Len(t, docs, 19, "18 notes and a text file")
	})

	t.Run("titles: front matter, else the first H1, else the file name", func(t *testing.T) {
		for p, want := range map[string]string{
			"Home.md":                     "Vault home",
			"Concepts/Budget.md":          "Token budget", // TOML
			"Reading/Papers/Attention.md": "Attention Is All You Need",
			"Glossary.md":                 "Glossary of terms",
			"Projects/Beta/Overview.md":   "Beta overview", // malformed front matter
			"Concepts/Graph theory.md":    "Graph theory",
			"Inbox/Untitled.md":           "Untitled",
			"Daily/2024-01-16.md":         "2024-01-16",
		} {
			assert.Equal(t, want, docs[p].Title, p)
		}
	})

	t.Run("aliases and tags of every shape", func(t *testing.T) {
		assert.Equal(t, []string{"Start page", "Index of everything"}, docs["Home.md"].Meta.Aliases)
		assert.Equal(t, []string{"hub", "Topic/graphs"}, docs["Home.md"].Meta.Tags, "front matter, then inline; #hub once")
		assert.Equal(t, []string{"Terms", "Vocabulary"}, docs["Glossary.md"].Meta.Aliases, "a comma-separated string")
		assert.Equal(t, []string{"reference", "glossary"}, docs["Glossary.md"].Meta.Tags, "a space-separated string under tag:")
		assert.Equal(t, []string{"Launch plan"}, docs["Projects/Alpha/Plan.md"].Meta.Aliases, "alias: one string")
		assert.Equal(t, []string{"math", "Graphs/Theory"}, docs["Concepts/Graph theory.md"].Meta.Tags, "# dropped, nesting kept")
		assert.Equal(t, []string{"Context budget"}, docs["Concepts/Budget.md"].Meta.Aliases)
		assert.Equal(t, []string{"daily", "Hub", "log/work"}, docs["Daily/2024-01-15.md"].Meta.Tags, "#2024 is a number")
		assert.Equal(t, []string{"idea"}, docs["Inbox/Quick capture.md"].Meta.Tags, "#idea #Idea is one tag")
		assert.Equal(t, []string{"inline-tag"}, docs["Concepts/Embeddings.md"].Meta.Tags, "a heading's tag counts; code, C#, #123 and URLs do not")
		assert.Equal(t, []string{"Vaswani", "Shazeer"}, docs["Reading/Papers/Attention.md"].Meta.Authors)
		assert.Equal(t, "2017", docs["Reading/Papers/Attention.md"].Meta.Year)
		assert.Equal(t, "2023", docs["Concepts/Embeddings.md"].Meta.Year, "from date:")
		assert.Empty(t, docs["Projects/Beta/Overview.md"].Meta.Tags, "malformed: nothing read from it")
	})

	t.Run("front matter stays out of the text, lines stay the file's", func(t *testing.T) {
		home := docs["Home.md"].Sections[0]
		assert.Equal(t, 9, home.LineStart)
		assert.True(t, strings.HasPrefix(home.Text, "# Welcome"))
		graph := docs["Concepts/Graph theory.md"].Sections[0]
		assert.Equal(t, [2]int{6, 6}, [2]int{graph.LineStart, graph.LineEnd})
		assert.Equal(t, "Graphs are made of nodes and edges. ^def1", graph.Text)
		beta := docs["Projects/Beta/Overview.md"].Sections[0]
		assert.Equal(t, 1, beta.LineStart)
		assert.True(t, strings.HasPrefix(beta.Text, "---\ntitle: [unclosed"), "malformed front matter is kept as text")
		tuesday := docs["Daily/2024-01-16.md"]
		require.Len(t, tuesday.Sections, 1, "a note of front matter only still ingests")
		assert.Contains(t, tuesday.Sections[0].Text, "aliases: [Tuesday]")
	})

	t.Run("no link from code", func(t *testing.T) {
		for _, d := range docs {
			for _, s := range d.Sections {
				for _, l := range s.Links {
					for _, never := range []string{"Not a link", "Fenced link", "fenced.png", "Indented code link"} {
						assert.NotContains(t, l, never, d.Path)
					}
				}
			}
		}
	})
}
