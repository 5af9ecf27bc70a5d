package bibtex

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCleanTeX(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{\"o}`, "ö"},
		{`\"{o}`, "ö"},
		{`\"o`, "ö"},
		{`Sch{\"{u}}tze`, "Schütze"},
		{`\'{\i}`, "í"},
		{`\v{C}ech`, "Čech"},
		{`\v Cech`, "Čech"},
		{`Erd\H{o}s`, "Erdős"},
		{`Fran\c{c}ois`, "François"},
		{`Stra\ss e`, "Straße"},
		{`{\O}re`, "Øre"},
		{`\& and \% and \$ and \# and \_`, "& and % and $ and # and _"},
		{`pages 1--10`, "pages 1–10"},
		{`a---b`, "a—b"},
		{`a-b`, "a-b"},
		{`one~two`, "one two"},
		{"``quoted''", "“quoted”"},
		{`{{Braces}} {kept} {D}ropped`, "Braces kept Dropped"},
		{"  white \n\t space  ", "white space"},
		{`\emph{Emphasis} and {\em old style} and \textbf {bold}`, "Emphasis and old style and bold"},
		{`\LaTeX\ and \TeX{} systems`, "LaTeX and TeX systems"},
		{`$\alpha$-helix at $O(n^2)$`, "α-helix at O(n^2)"},
		{`\href{https://x.org}{the site}`, "the site"},
		{`{\noopsort{b}}Beta`, "Beta"},
		{`\unknown{argument} and \unknownword alone`, "argument and unknownword alone"},
		{`hy\-phen\-ation`, "hyphenation"},
		{`line\\break`, "line break"},
		{`trailing \`, "trailing"},
		{`\"`, ""},
		{`{`, ""},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, CleanTeX(c.in), "CleanTeX(%q)", c.in)
	}
}

func TestPersonNames(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"Knuth, Donald E.", []string{"Donald E. Knuth"}},
		{"Donald E. Knuth", []string{"Donald E. Knuth"}},
		{"Knuth, Donald and Lamport, Leslie", []string{"Donald Knuth", "Leslie Lamport"}},
		{"Knuth, Donald AND Leslie Lamport", []string{"Donald Knuth", "Leslie Lamport"}},
		{"van Beethoven, Ludwig", []string{"Ludwig van Beethoven"}},
		{"King, Jr, Martin Luther", []string{"Martin Luther King Jr"}},
		{"{Barnes and Noble} and others", []string{"Barnes and Noble"}},
		{"Alexander Anderson and Sandy Band", []string{"Alexander Anderson", "Sandy Band"}},
		{"M{\\\"u}ller, J{\\\"o}rg", []string{"Jörg Müller"}},
		{"Lee,\n  Ada   and\n  Others", []string{"Ada Lee"}},
		{"", nil},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, personNames(c.in), "personNames(%q)", c.in)
	}
}

func TestNormalizeTitle(t *testing.T) {
	cases := []struct{ in, want string }{
		{"FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness", "flashattention fast and memory efficient exact attention with io awareness"},
		{"  Über die   Verarbeitung — natürlicher Sprache ", "uber die verarbeitung naturlicher sprache"},
		{"E\uFB03cient search", "efficient search"},
		{"BERT: Pre-training (2019)!", "bert pre training 2019"},
		{"", ""},
		{"—", ""},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, NormalizeTitle(c.in), "NormalizeTitle(%q)", c.in)
	}
}

func TestNormalizeDOI(t *testing.T) {
	cases := []struct{ in, want string }{
		{"10.1145/3290605.3300857", "10.1145/3290605.3300857"},
		{"https://doi.org/10.1093/COMJNL/27.2.97", "10.1093/comjnl/27.2.97"},
		{"http://dx.doi.org/10.1000%2Fxyz", "10.1000/xyz"},
		{"doi:10.5555/END.2025.1.", "10.5555/end.2025.1"},
		{"DOI 10.1016/0370-2693(85)90567-1", "10.1016/0370-2693(85)90567-1"},
		{"(see 10.1000/abc)", "10.1000/abc"},
		{"the version 110.1000/x is not one; 10.1234/real is", "10.1234/real"},
		{"10.12/too-short-prefix", ""},
		{"10.1000/", ""},
		{"no doi here", ""},
		{"", ""},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, NormalizeDOI(c.in), "NormalizeDOI(%q)", c.in)
	}
}

func TestNormalizeArXiv(t *testing.T) {
	cases := []struct{ in, want string }{
		{"2205.14135", "2205.14135"},
		{"2205.14135v2", "2205.14135"},
		{"arXiv:2205.14135v12", "2205.14135"},
		{"https://arxiv.org/abs/2005.11401v4", "2005.11401"},
		{"https://arxiv.org/pdf/2005.11401.pdf", "2005.11401"},
		{"arXiv preprint arXiv:2005.14165", "2005.14165"},
		{"0704.0001", "0704.0001"},
		{"hep-th/9711200", "hep-th/9711200"},
		{"math.GT/0309136v2", "math.GT/0309136"},
		{"2205.141", ""},
		{"2205.141356", ""},
		{"12345.6789", ""},
		{"10.1000/xyz", ""},
		{"arXiv preprint", ""},
		{"\xff\xffARXIV:2205.14135", "2205.14135"},
		{"", ""},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, NormalizeArXiv(c.in), "NormalizeArXiv(%q)", c.in)
	}
}
