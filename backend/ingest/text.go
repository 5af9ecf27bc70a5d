package ingest

import (
	"iter"
	"strings"
	"unicode"
)

// paragraph is a run of non-blank lines (a fenced code block counts as one
// paragraph even when it holds blank lines).
type paragraph struct {
	start, end int // byte offsets in the text, end exclusive, trailing newline excluded
}

// paragraphs yields the paragraphs of s in order.
func paragraphs(s string) iter.Seq[paragraph] {
	return func(yield func(paragraph) bool) {
		inFence := false
		fence := ""
		start := -1
		off := 0
		for off <= len(s) {
			nl := strings.IndexByte(s[off:], '\n')
			lineEnd := len(s)
			if nl >= 0 {
				lineEnd = off + nl
			}
			line := s[off:lineEnd]
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
				mark := trimmed[:3]
				if !inFence {
					inFence, fence = true, mark
				} else if strings.HasPrefix(trimmed, fence) {
					inFence = false
				}
			}
			blank := trimmed == "" && !inFence
			if blank {
				if start >= 0 {
					if !yield(paragraph{start, trimEnd(s, start, off)}) {
						return
					}
					start = -1
				}
			} else if start < 0 {
				start = off
			}
			if nl < 0 {
				break
			}
			off = lineEnd + 1
		}
		if start >= 0 {
			yield(paragraph{start, trimEnd(s, start, len(s))})
		}
	}
}

func trimEnd(s string, start, end int) int {
	for end > start && (s[end-1] == '\n' || s[end-1] == '\r' || s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	return end
}

// splitText makes plain text into sections of whole paragraphs; each
// paragraph is a section (splitLarge later merges nothing, it only splits),
// but consecutive short paragraphs are grouped up to ~200 words so a file
// of one-line paragraphs does not become hundreds of tiny nodes.
func splitText(path string, data []byte) []Section {
	s := string(data)
	lines := lineCursor{text: s} // paragraph starts and ends only move forward
	lineOf := func(off int) int { return 1 + lines.count(min(off, len(s)-1)) }
	var out []Section
	var cur *Section
	words := 0
	for p := range paragraphs(s) {
		w := countFields(s[p.start:p.end])
		if cur != nil && words+w <= 200 {
			cur.Text = s[cur.startOff():p.end]
			cur.LineEnd = lineOf(p.end - 1)
			words += w
			continue
		}
		out = append(out, Section{
			Ordinal: len(out), Ref: path, Text: s[p.start:p.end], Parent: -1, Part: 1, Parts: 1,
			LineStart: lineOf(p.start), LineEnd: lineOf(p.end - 1), startByte: p.start,
		})
		cur = &out[len(out)-1]
		words = w
	}
	return out
}

// countFields is len(strings.Fields(s)) without making the slice.
func countFields(s string) int {
	n := 0
	inField := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			inField = false
		} else if !inField {
			inField = true
			n++
		}
	}
	return n
}
