package ingest

import (
	"strings"
)

// splitLarge cuts sections above MaxSectionTokens at paragraph boundaries,
// repeating up to OverlapTokens of trailing text at the start of the next
// chunk (seed §7.2), and renumbers ordinals and parents.
func splitLarge(in []Section, opts Options) []Section {
	var out []Section
	firstOf := make(map[int]int, len(in)) // old ordinal → new ordinal of its first chunk
	for _, s := range in {
		firstOf[s.Ordinal] = len(out)
		if s.Tokens = opts.CountTokens(s.Text); s.Tokens <= opts.MaxSectionTokens {
			out = append(out, s)
			continue
		}
		chunks := chunkText(s.Text, opts)
		for i, c := range chunks {
			part := s
			part.Text = strings.TrimSpace(s.Text[c.start:c.end])
			part.LineStart = s.LineStart + strings.Count(s.Text[:c.start], "\n")
			part.LineEnd = part.LineStart + strings.Count(s.Text[c.start:c.end], "\n")
			part.Part, part.Parts = i+1, len(chunks)
			part.Tokens = c.tokens
			part.Links = nil
			for _, l := range s.Links {
				if strings.Contains(part.Text, l) {
					part.Links = append(part.Links, l)
				}
			}
			out = append(out, part)
		}
	}
	for i := range out {
		out[i].Ordinal = i
		if out[i].Parent >= 0 {
			out[i].Parent = firstOf[out[i].Parent]
		}
	}
	return out
}

type span struct{ start, end int }

// chunkText packs whole paragraphs into chunks of at most MaxSectionTokens;
// a paragraph bigger than that is cut at sentence, then word, boundaries.
// Each unit is counted once; a chunk's count is the sum of its units' (BPE
// merges never cross the blank lines between paragraphs, so the sum is
// within a token or two of counting the chunk again).
func chunkText(s string, opts Options) []chunk {
	var units []span
	for _, p := range paragraphs(s) {
		if opts.CountTokens(s[p.start:p.end]) <= opts.MaxSectionTokens {
			units = append(units, span{p.start, p.end})
			continue
		}
		units = append(units, cutSpan(s, span{p.start, p.end}, opts)...)
	}
	counts := make([]int, len(units))
	for i, u := range units {
		counts[i] = opts.CountTokens(s[u.start:u.end])
	}
	var out []chunk
	cur := chunk{span: span{-1, -1}}
	for i, u := range units {
		t := counts[i]
		if cur.start >= 0 && cur.tokens+t > opts.MaxSectionTokens {
			out = append(out, cur)
			// Overlap: start the next chunk with trailing units of this one.
			start := u.start
			ov := 0
			for j := i - 1; j >= 0 && units[j].start >= cur.start; j-- {
				if ov+counts[j] > opts.OverlapTokens || counts[j]+t > opts.MaxSectionTokens {
					break
				}
				ov += counts[j]
				start = units[j].start
			}
			cur = chunk{span{start, u.end}, ov + t}
			continue
		}
		if cur.start < 0 {
			cur.start = u.start
		}
		cur.end = u.end
		cur.tokens += t
	}
	if cur.start >= 0 {
		out = append(out, cur)
	}
	return out
}

type chunk struct {
	span
	tokens int
}

// cutSpan splits an oversized paragraph at sentence ends, falling back to
// word boundaries for a single enormous sentence.
func cutSpan(s string, sp span, opts Options) []span {
	var pieces []span
	start := sp.start
	for i := sp.start; i < sp.end; i++ {
		c := s[i]
		if (c == '.' || c == '?' || c == '!' || c == '\n') && i+1 < sp.end && (s[i+1] == ' ' || s[i+1] == '\n') {
			pieces = append(pieces, span{start, i + 1})
			start = i + 1
		}
	}
	if start < sp.end {
		pieces = append(pieces, span{start, sp.end})
	}
	var out []span
	cur := span{-1, -1}
	tokens := 0
	flush := func() {
		if cur.start >= 0 {
			out = append(out, cur)
		}
		cur, tokens = span{-1, -1}, 0
	}
	for _, p := range pieces {
		t := opts.CountTokens(s[p.start:p.end])
		if t > opts.MaxSectionTokens {
			flush()
			out = append(out, cutWords(s, p, opts)...)
			continue
		}
		if cur.start >= 0 && tokens+t > opts.MaxSectionTokens {
			flush()
		}
		if cur.start < 0 {
			cur.start = p.start
		}
		cur.end = p.end
		tokens += t
	}
	flush()
	return out
}

func cutWords(s string, sp span, opts Options) []span {
	var out []span
	start := sp.start
	last := sp.start
	for i := sp.start; i <= sp.end; i++ {
		if i == sp.end || s[i] == ' ' || s[i] == '\n' {
			if opts.CountTokens(s[start:i]) > opts.MaxSectionTokens && last > start {
				out = append(out, span{start, last})
				start = last
			}
			last = i
		}
	}
	if start < sp.end {
		out = append(out, span{start, sp.end})
	}
	return out
}
