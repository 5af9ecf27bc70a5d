package pdf

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFindDOI(t *testing.T) {
	tests := map[string]string{
		"see doi:10.1145/3292500.3330701.":          "10.1145/3292500.3330701",
		"https://doi.org/10.48550/arXiv.2205.14135": "10.48550/arxiv.2205.14135",
		"(DOI 10.1000/XYZ-123), next":               "10.1000/xyz-123",
		"no identifier here, 10.1 / 2":              "",
	}
	for in, want := range tests {
		assert.Equal(t, want, findDOI(in), in)
	}
}

func TestFindArXiv(t *testing.T) {
	tests := map[string]string{
		"arXiv:2205.14135v2 [cs.LG] 23 Jun 2022": "2205.14135",
		"Preprint arXiv:1706.03762":              "1706.03762",
		"arXiv:cs/0501001v1":                     "cs/0501001",
		"see math.AG/0309136 for the proof":      "math.AG/0309136",
		"and/1234567 is a path":                  "",
		"version 2205.14135 alone":               "",
	}
	for in, want := range tests {
		assert.Equal(t, want, findArXiv(in), in)
	}
}

func TestPersonNamesAndTheirLines(t *testing.T) {
	for s, want := range map[string]bool{
		"Ada Lovelace": true, "H. K. Küttler": true, "Jean-Luc Picard": true, "Patrick van Hardenberg": true, "O'Neil Smith": true,
		"Grace": false, "Keeping a Workbench Local": false, "Notes on a design": false, "A. B.": false, "Loom Research Lab Team of Many People": false,
	} {
		assert.Equal(t, want, personName(s), s)
	}
	l := newLine(1, 0, []*fragment{{text: "Ada Lovelace1, Charles Babbage*"}, {text: "and Grace Hopper†"}}, 0, 600)
	assert.Equal(t, []string{"Ada Lovelace", "Charles Babbage", "Grace Hopper"}, authorNames(l))
	assert.Nil(t, authorNames(newLine(1, 0, []*fragment{{text: "Ada Lovelace and the engine"}}, 0, 600)))
	assert.Equal(t, []string{"Ada Lovelace", "Alan Turing"}, infoAuthors("Ada Lovelace; Alan Turing"))
	assert.Nil(t, infoAuthors("Administrator"))
}

func TestGoodTitlesAndJunk(t *testing.T) {
	for s, want := range map[string]bool{
		"Attention Is All You Need": true, "Microsoft Word - paper_v3.docx": false, "untitled": false,
		"main.tex": false, "Title": false, "paper_final": false, "arXiv:2205.14135v2": false,
	} {
		assert.Equal(t, want, goodTitle(s), s)
	}
}
