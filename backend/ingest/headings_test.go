package ingest

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/model"
)

// TestMarkedHeadings: each format's titles become Markdown headings, at the
// level the format gives them, line for line; what only looks like a title
// (in code, a comment, a short underline) does not.
func TestMarkedHeadings(t *testing.T) {
	for _, tt := range []struct{ name, path, in, want string }{
		{"rst: levels in the order styles appear, overlines and anchors", "a.rst",
			".. _top:\n\n=====\nTitle\n=====\n\nText.\n\nPart\n----\n\nMore.\n\nSub\n~~~\n\nx\n\nOther part\n----------\n",
			"\n\n\n# Title\n\n\nText.\n\n## Part\n\n\nMore.\n\n### Sub\n\n\nx\n\n## Other part\n\n"},
		{"rst: not titles", "a.rst",
			"Para line\nnext line\n----\n\nToo long a title\n===\n\n    Indented\n    ========\n\n.. _Link: https://example.org\n",
			"Para line\nnext line\n----\n\nToo long a title\n===\n\n    Indented\n    ========\n\n.. _Link: https://example.org\n"},
		{"adoc: levels, code fenced, prose blocks and attributes blanked", "a.adoc",
			"= Book\n:toc: left\n// a comment\n\n== Setup\n\n[source]\n----\n# a shell comment\n== not a title\n----\n\n====\nAn example.\n====\n\n=== Detail\n",
			"# Book\n\n\n\n## Setup\n\n[source]\n```\n# a shell comment\n== not a title\n```\n\n\nAn example.\n\n\n### Detail\n"},
		{"org: levels under a title, keywords and tags, blocks", "a.org",
			"#+TITLE: Notes\n# a comment\n* TODO [#A] Plan :work:\n** DONE Step\n#+begin_src sh\n* not a headline\n# nor a comment\n#+end_src\n#+begin_quote\nQuoted.\n#+end_quote\n-----\n",
			"# Notes\n\n## Plan\n### Step\n```\n* not a headline\n# nor a comment\n```\n\nQuoted.\n\n\n"},
		{"org: no title, no shift", "a.org", "* One\n** Two\n", "# One\n## Two\n"},
		{"org: drawers, planning and keywords blanked, a subtitle kept", "a.org",
			":PROPERTIES:\n:ID: 1f2e\n:END:\n#+title: Note\n#+subtitle: What it says\n#+filetags: :a:b:\n* Step\nSCHEDULED: <2026-01-02 Fri>\n:LOGBOOK:\n- State \"DONE\" from \"TODO\"\n:END:\nDone.\n:note:\nKept: no :END: follows.\n",
			"\n\n\n# Note\nWhat it says\n\n## Step\n\n\n\n\nDone.\n:note:\nKept: no :END: follows.\n"},
		{"org: a literature note's sources under its title", "a.org",
			":PROPERTIES:\n:ID: x\n:ROAM_REFS: cite:cochran1977 https://x.org\n:END:\n#+title: Methods\n#+filetags: :a:\n\nWe sampled.\n* H\n:PROPERTIES:\n:ROAM_REFS: @k2\n:END:\n",
			"\n\n\n\n# Methods\nSource: @cochran1977 https://x.org\n\nWe sampled.\n## H\n\nSource: @k2\n\n"},
		{"org: sources with no room under the title stay where they are", "a.org",
			":PROPERTIES:\n:ROAM_REFS: @k\n:END:\n#+title: M\nText at once.\n* H\n",
			"\nSource: @k\n\n# M\nText at once.\n## H\n"},
		{"org: links written as Markdown's", "a.org",
			"* See [[*Other][other]] and [[Features]]\nRead [[file:b.org][B]], [[file:sub/c d.org::*A Heading][C]] and [[./e.org]]. [[file:images/plot.png]]\nAlso [[https://example.org/x][the site]], [[#setup]], [[*Other]], [[id:9a8b][a roam note]], [[doom-package:vimish-fold]] and [[a fuzzy search]].\n** Other\n#+begin_src org\n[[file:b.org][B]]\n#+end_src\n",
			"# See other and [[Features]]\nRead [B](b.org), [C](<sub/c d.org#a-heading>) and [./e.org](./e.org). images/plot.png\nAlso [the site](https://example.org/x), [setup](#setup), [Other](#other), [a roam note](id:9a8b), vimish-fold and [[a fuzzy search]].\n## Other\n```\n[[file:b.org][B]]\n```\n"},
		{"another format is left as it is", "a.txt", "Title\n=====\n", "Title\n=====\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := markedHeadings(tt.path, []byte(tt.in))
			assert.Equal(t, tt.want, string(got))
			assert.Equal(t, strings.Count(tt.in, "\n"), strings.Count(string(got), "\n"), "every line keeps its number")
		})
	}
	_, n := markedHeadings("a.rst", []byte("Just a paragraph.\n\nAnd another.\n"))
	assert.Zero(t, n, "no titles: the file stays text")
	_, n = markedHeadings("a.org", []byte("#+title: A note\n\nIts text, no headline.\n"))
	assert.Equal(t, 1, n, "an Org-roam note, a title and prose, reads as Markdown")
}

// TestHeadedTextFilesSplitAtTheirHeadings: real reStructuredText (Requests'
// documentation), AsciiDoc (Asciidoctor's README) and Org (a Doom Emacs
// module's README) split at their titles, each section starting on its
// title's line in the file; a text file without titles is still read by
// paragraphs.
// TestOrgMeta: an Org file's tags, authors and Org-roam aliases, from its
// keywords and its first property drawer; not from a headline's drawer.
func TestOrgMeta(t *testing.T) {
	m := orgMeta([]byte(":PROPERTIES:\n:ID: 1f2e\n:ROAM_ALIASES: \"Study design\" RCT\n:END:\n#+title: Methods\n#+FILETAGS: :stats:design:\n#+author: A. Researcher\n* Later\n:PROPERTIES:\n:ROAM_ALIASES: Nope\n:END:\n#+filetags: :late:\n"))
	assert.Equal(t, model.DocMeta{Tags: []string{"stats", "design"}, Authors: []string{"A. Researcher"}, Aliases: []string{"Study design", "RCT"}, IDs: []string{"1f2e"}}, m)
	assert.Equal(t, []string{"a1", "B-2"}, OrgIDs([]byte(":PROPERTIES:\n:ID:       a1\n:END:\n* H\n  :PROPERTIES:\n  :id: B-2\n  :END:\nText :ID: not-a-property\n")))
	assert.True(t, orgMeta([]byte("* Only a headline\n")).IsZero())
	docs, err := Parse("m.org", "m.org", "", []byte("#+title: Methods\n#+filetags: stats\n\nWe sampled at random.\n"), Options{})
	require.NoError(t, err)
	require.Len(t, docs, 1)
	assert.Equal(t, "Methods", docs[0].Title)
	assert.Equal(t, []string{"stats"}, docs[0].Meta.Tags)
	require.Len(t, docs[0].Sections, 1)
	assert.Equal(t, "We sampled at random.", strings.TrimSpace(strings.TrimPrefix(docs[0].Sections[0].Text, "# Methods")))
}

// TestAnOrgNoteOfATitleIsANote: the note Org-roam makes for a link before
// anything is written in it — a drawer and a title — goes in as one
// section, its title on its own line, cited as the note; a Markdown file
// of headings alone is still refused (TestUnreadableFilesSayWhyAndWhatToDo).
func TestAnOrgNoteOfATitleIsANote(t *testing.T) {
	docs, err := Parse("beam_search.org", "reference/beam_search.org", "", []byte(":PROPERTIES:\n:ID:       2e7194d1\n:END:\n#+hugo_slug: beam\n#+title: Beam Search\n"), Options{})
	require.NoError(t, err)
	require.Len(t, docs, 1)
	d := docs[0]
	assert.Equal(t, "Beam Search", d.Title)
	assert.Equal(t, []string{"2e7194d1"}, d.Meta.IDs)
	require.Len(t, d.Sections, 1)
	s := d.Sections[0]
	assert.Equal(t, "reference/beam_search.org", s.Ref)
	assert.Equal(t, "# Beam Search", s.Text)
	assert.Equal(t, [2]int{5, 5}, [2]int{s.LineStart, s.LineEnd})
	_, err = Parse("x.org", "x.org", "", []byte(":PROPERTIES:\n:ID: 1\n:END:\n"), Options{})
	require.Error(t, err, "a drawer alone says nothing")
}

func TestHeadedTextFilesSplitAtTheirHeadings(t *testing.T) {
	for _, tt := range []struct {
		file, title string
		paths       [][]string
		kept, gone  []string
	}{
		{"authentication.rst", "Authentication", [][]string{
			{"Authentication"}, {"Authentication", "Basic Authentication"}, {"Authentication", "Basic Authentication", "netrc Authentication"},
			{"Authentication", "Digest Authentication"}, {"Authentication", "OAuth 1 Authentication"}, {"Authentication", "OAuth 2 and OpenID Connect Authentication"},
			{"Authentication", "Other Authentication"}, {"Authentication", "New Forms of Authentication"}},
			[]string{"    >>> requests.get(url, auth=HTTPDigestAuth('user', 'pass'))", ".. _OAuth: https://oauth.net/"}, []string{".. _authentication:", "=========="}},
		{"installation.adoc", "installation", [][]string{
			{"Installation"}, {"Installation", "(a) gem install"}, {"Installation", "(b) Bundler"},
			{"Installation", "(c) Linux package managers", "DNF (Fedora 21 or greater)"}, {"Installation", "(c) Linux package managers", "apt-get (Debian, Ubuntu, Mint)"},
			{"Installation", "(c) Linux package managers", "apk (Alpine Linux)"}},
			[]string{"```\nsource 'https://rubygems.org'\ngem 'asciidoctor'\n# or specify the version explicitly"}, []string{"\n----\n", "\n====\n"}},
		{"fold.org", ":editor fold", [][]string{
			{":editor fold"}, {":editor fold", "Description"}, {":editor fold", "Description", "Maintainers"}, {":editor fold", "Description", "Module flags"},
			{":editor fold", "Description", "Packages"}, {":editor fold", "Description", "Hacks"}, {":editor fold", "Description", "Changelog"},
			{":editor fold", "Installation"}, {":editor fold", "Usage"}, {":editor fold", "Configuration"}, {":editor fold", "Troubleshooting"},
			{":editor fold", "Frequently asked questions"}, {":editor fold", "Appendix"}},
			[]string{"What you can't see won't hurt you", "| C-c C-f C-f        | Fold region               |", "This module marries hideshow, vimish-fold, and"},
			[]string{"# This section will be machine generated", "#+begin_quote", "#+created", "May 15, 2019", "[[doom-package:", ":unfold:"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/headings/" + tt.file)
			require.NoError(t, err)
			docs, err := Parse(tt.file, tt.file, "", data, Options{})
			require.NoError(t, err)
			require.Len(t, docs, 1)
			doc := docs[0]
			assert.Equal(t, tt.title, doc.Title)
			lines := bytes.Split(data, []byte("\n"))
			var paths [][]string
			text := ""
			for _, s := range doc.Sections {
				text += s.Text + "\n"
				paths = append(paths, s.HeadingPath)
				title := s.HeadingPath[len(s.HeadingPath)-1]
				assert.Contains(t, string(lines[s.LineStart-1]), strings.TrimPrefix(title, ":editor "), "%s starts on its title's line", title)
			}
			assert.Equal(t, tt.paths, paths)
			for _, k := range tt.kept {
				assert.Contains(t, text, k)
			}
			for _, g := range tt.gone {
				assert.NotContains(t, text, g)
			}
		})
	}
	docs, err := Parse("plain.rst", "plain.rst", "", []byte("A note without titles.\n\nIts second paragraph.\n"), Options{})
	require.NoError(t, err)
	plain, err := Parse("plain.txt", "plain.txt", "", []byte("A note without titles.\n\nIts second paragraph.\n"), Options{})
	require.NoError(t, err)
	plain[0].Sections[0].Ref = "plain.rst"
	assert.Equal(t, plain[0].Sections, docs[0].Sections, "read by paragraphs, as text is")
}

// FuzzMarkedHeadings: whatever the file holds, every line keeps its number.
func FuzzMarkedHeadings(f *testing.F) {
	for _, name := range []string{"authentication.rst", "installation.adoc", "fold.org"} {
		data, err := os.ReadFile("testdata/headings/" + name)
		require.NoError(f, err)
		f.Add(name, data)
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		got, _ := markedHeadings(name, src)
		assert.Equal(t, bytes.Count(src, []byte("\n")), bytes.Count(got, []byte("\n")))
	})
}
