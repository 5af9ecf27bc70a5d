package ingest

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/loomwork/loom/backend/ingest/bibtex"
)

// Pandoc's citations ([@doe99], [see @doe99, p. 33; @smith04], [-@doe99],
// and @doe99 in running text), which Quarto, R Markdown, Zettlr and
// Obsidian's Pandoc and Zotero plugins write too, and Org's
// ([cite:@doe99; @smith04]). collect records each key met in a note's
// prose as a link "@KEY" (Section.Links): the library links the section
// to the reference entry of that key (a BibTeX or RIS entry's
// Meta.BibKey), so a draft is one hop from the papers it cites. A key no
// entry has (an @mention, a decorator named in prose) links nowhere.

// citation is a citation key with what may stand before it: the start, a
// space, "[", ";", "(", Org's "cite:" or the "-" that suppresses the
// author. A key opens with a letter, digit or "_" and may hold internal
// punctuation (":.#$%&-+?<>~/"), as Pandoc reads it, never at its end.
var citation = regexp.MustCompile(`(?:^|[\s\[;(:-])@([\pL\pN_](?:[\pL\pN_:.#$%&+?<>~/-]*[\pL\pN_])?)`)

// CitationLink is the link a citation of key is recorded as.
func CitationLink(key string) string { return "@" + key }

// CitedKey is the key of a link CitationLink made; ok is false for any
// other link.
func CitedKey(link string) (key string, ok bool) {
	key, ok = strings.CutPrefix(link, "@")
	return key, ok && key != "" && !strings.ContainsAny(key, " \t\n[]")
}

// citations are the citation keys of a piece of prose, where each is
// (its "@", relative to text), in order. before is the byte before text
// in its file (0 at the start): a text node of goldmark's may begin right
// after the "[" of a citation.
func citations(text string, before byte) (at []int, keys []string) {
	for _, m := range citation.FindAllStringSubmatchIndex(text, -1) {
		key := text[m[2]:m[3]]
		atSign := m[2] - 1
		if atSign == 0 && before != 0 && !strings.ContainsRune(" \t\r\n[;(:-", rune(before)) {
			continue // "name@example.org" split across text nodes
		}
		at, keys = append(at, atSign), append(keys, key)
	}
	return at, keys
}

// ReferenceKeys are the citation keys of a references file (.bib or .ris)
// as Parse makes its documents "<path>#<key>"; none for another file or
// one that cannot be read.
func ReferenceKeys(path string, data []byte) []string {
	read := bibtex.Parse
	switch strings.ToLower(filepath.Ext(path)) {
	case ".bib":
	case ".ris":
		read = bibtex.ParseRIS
	default:
		return nil
	}
	entries, _, err := read(data)
	if err != nil {
		return nil
	}
	keys := make([]string, len(entries))
	for i, e := range entries {
		keys[i] = e.Key
	}
	return keys
}
