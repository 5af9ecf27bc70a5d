//go:build !js

package backend

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestADraftLinksToThePapersItCites: a note's Pandoc citations link its
// sections to the BibTeX (and RIS) entries of their keys — in its own folder, in
// another collection (a Zotero export), entries stored before a note
// ingested alone — and a key no entry has links nowhere.
func TestADraftLinksToThePapersItCites(t *testing.T) {
	root := t.TempDir()
	vault, zotero := filepath.Join(root, "vault"), filepath.Join(root, "zotero")
	writeTree(t, vault, map[string]string{
		"draft.md": "# Related work\n\nAttention replaced recurrence [@vaswani2017; @bahdanau2015, p. 3].\n" +
			"Pretraining [see @devlin2019] helps; ask @someone about it. Wetlands: @smith2019stratified.\n",
		// A publisher's "Download citation" file: RIS, keyed as BibTeX
		// tools key it (author, year, first long word of the title).
		"download.ris": "TY  - JOUR\r\nAU  - Smith, Ann\r\nTI  - Stratified random sampling of wetlands\r\nPY  - 2019\r\n" +
			"DO  - 10.1000/jfe.2019.12\r\nER  - \r\n",
		"refs.bib": "@article{vaswani2017,\n  title = {Attention Is All You Need},\n  year = {2017}\n}\n" +
			"@inproceedings{bahdanau2015,\n  title = {Neural Machine Translation by Jointly Learning to Align and Translate},\n  year = {2015}\n}\n",
	})
	writeTree(t, zotero, map[string]string{
		"library.bib": "@article{devlin2019,\n  title = {BERT: Pre-training of Deep Bidirectional Transformers},\n  year = {2019}\n}\n",
	})

	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	g := ingestedGraph(t, wb, zotero, vault)
	want := []string{"draft.md -> download.ris#smith2019stratified", "draft.md -> library.bib#devlin2019", "draft.md -> refs.bib#bahdanau2015", "draft.md -> refs.bib#vaswani2017"}
	assert.Equal(t, want, vaultLinks(g), "the entries in the draft's folder, read in the same run, and one of another collection; none for @someone")
	for _, d := range g.Documents {
		if d.Path == "download.ris#smith2019stratified" {
			assert.Equal(t, "Stratified random sampling of wetlands", d.Title)
			assert.Equal(t, []string{"Ann Smith"}, d.Meta.Authors)
			assert.Equal(t, "10.1000/jfe.2019.12", d.Meta.DOI)
		}
	}

	// The draft changed and ingested alone: the stored entries answer.
	writeTree(t, vault, map[string]string{"draft.md": "# Related work\n\nOnly BERT now [@devlin2019].\n"})
	g = ingestedGraph(t, wb, filepath.Join(vault, "draft.md"))
	assert.Equal(t, []string{"draft.md -> library.bib#devlin2019"}, vaultLinks(g))
}
