package ingest

import (
	"strings"

	"github.com/loomwork/loom/backend/model"
)

// EmbedTextOf is what gets embedded for a node: EmbedText of its heading
// path and text, except for a definition in source code (every part of a
// long one), which is embedded as its signature and its comments — what it says in words,
// which is what a question is asked in; a word table embeds code as noise.
// (Its whole text goes to the keyword index.) Embedding the later parts of
// a long definition as their own code measured a little worse (nDCG@10
// 0.398). On Loom's own code at budget 4000, against embedding
// the whole text: the 110 questions' nDCG@10 0.388 → 0.396, file Acc@5
// 0.882 → 0.891; the 24 bug cases' recall 0.579 → 0.597 (BENCHMARKS.md).
func EmbedTextOf(headingPath []string, text string, sym *model.Symbol) string {
	if sym == nil || sym.Kind == "file" {
		return EmbedText(headingPath, text)
	}
	said := sym.Signature + "\n" + CodeComments(text)
	if strings.TrimSpace(said) == "" {
		said = text // a definition with neither
	}
	return EmbedText(headingPath, said)
}

// CodeComments are the comment lines of a definition's text, without
// their markers: line comments ("//", "///", "#"), block comments ("/*
// … */", "/** … */") and Python's docstrings (""" … """ or ”' … ”').
// Comments after code on the same line are left out.
func CodeComments(text string) string {
	var b strings.Builder
	keep := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	end := "" // the end marker of the block or docstring we are in
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if end != "" {
			before, _, closed := strings.Cut(t, end)
			keep(strings.TrimPrefix(strings.TrimSpace(before), "*"))
			if closed {
				end = ""
			}
			continue
		}
		switch {
		case strings.HasPrefix(t, "//"):
			keep(strings.TrimLeft(t, "/!"))
		case strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#include") && !strings.HasPrefix(t, "#define") && !strings.HasPrefix(t, "#["):
			keep(strings.TrimLeft(t, "#!"))
		case strings.HasPrefix(t, "/*"):
			end = "*/"
		case strings.HasPrefix(t, `"""`), strings.HasPrefix(t, "'''"), strings.HasPrefix(t, `r"""`):
			end = strings.TrimPrefix(t, "r")[:3]
		default:
			continue
		}
		if end != "" { // the opening line: its text, and the block may close on it
			rest := t[strings.Index(t, map[string]string{"*/": "/*", `"""`: `"""`, "'''": "'''"}[end])+len(end):]
			rest = strings.TrimLeft(rest, "*!")
			before, _, closed := strings.Cut(rest, end)
			keep(before)
			if closed {
				end = ""
			}
		}
	}
	return b.String()
}
