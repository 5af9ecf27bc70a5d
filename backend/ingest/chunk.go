package ingest

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// splitLarge counts every section's tokens and cuts those above
// MaxSectionTokens at paragraph boundaries, repeating up to OverlapTokens
// of trailing text at the start of the next chunk (seed §7.2), then
// renumbers ordinals and parents. When no section is cut, the sections stay
// where they are (a document of a million short sections is not copied);
// otherwise the result is allocated once, at its final size. linkAt holds
// where each section's links were found (see Document.linkAt), or nil.
func splitLarge(in []Section, linkAt []int32, opts Options) []Section {
	var cuts map[int][]chunk // input index → its chunks, for the sections cut
	ck := chunker{Options: opts, spaces: map[int]int{}}
	total := 0
	for i := range in {
		s := &in[i]
		if s.Tokens = countTokens(opts.CountTokens, s.Text); s.Tokens <= opts.MaxSectionTokens {
			total++
			continue
		}
		if cuts == nil {
			cuts = map[int][]chunk{}
		}
		cuts[i] = ck.chunkText(s.Text, s.Tokens)
		total += len(cuts[i])
	}
	if cuts == nil {
		renumber(in, in, func(i int) int { return i })
		return in
	}
	out := make([]Section, 0, total)
	firstOut := make([]int, len(in)) // input index → output index of its first chunk
	links := newLinkCursor(in, linkAt)
	for i, s := range in {
		firstOut[i] = len(out)
		chunks, cut := cuts[i]
		if !cut {
			out = append(out, s)
			continue
		}
		lines := newLineCursor(s.Text)
		ls := links.section(i)
		for k, c := range chunks {
			part := s
			text := strings.TrimLeftFunc(s.Text[c.start:c.end], unicode.IsSpace)
			indent := 0
			if s.Code != nil {
				t := indented(s.Text, c.start, c.end-c.start-len(text), text)
				indent, text = len(t)-len(text), t
			}
			lead := c.end - c.start - len(text)
			part.Text = strings.TrimRightFunc(text, unicode.IsSpace) // strings.TrimSpace, keeping the offset
			part.LineStart = s.LineStart + lines.count(c.start)
			part.LineEnd = s.LineStart + lines.countEnd(c.end)
			if s.LineStart == 0 { // the source has no lines worth citing (a PDF)
				part.LineStart, part.LineEnd = 0, 0
			}
			part.Part, part.Parts = k+1, len(chunks)
			part.Tokens = c.tokens
			if indent > 0 {
				part.Tokens += countTokens(opts.CountTokens, text[:indent])
			}
			part.Links = ls.within(part.Text, c.start+lead, c.start+lead+len(part.Text))
			out = append(out, part)
		}
	}
	renumber(in, out, func(i int) int { return firstOut[i] })
	return out
}

// indented is text, the chunk of s at start without the lead bytes of
// space it starts with, given back the indent of its first line when that
// line starts in the chunk: a part of a definition keeps its code's
// nesting (Python's meaning is in it).
func indented(s string, start, lead int, text string) string {
	ws := s[start : start+lead]
	if i := strings.LastIndexByte(ws, '\n'); i >= 0 {
		return ws[i+1:] + text
	}
	if start == 0 || s[start-1] == '\n' {
		return ws + text
	}
	return text
}

// renumber sets every output section's Ordinal to its position and points
// Parent at the first chunk of the parent. Parents are ordinals of the
// input; they are positions too unless a caller renumbered sections, in
// which case the last input section holding an ordinal is the one meant.
func renumber(in, out []Section, firstOut func(int) int) {
	positional := true
	for i := range in {
		if in[i].Ordinal != i {
			positional = false
			break
		}
	}
	var byOrdinal map[int]int
	if !positional {
		byOrdinal = make(map[int]int, len(in))
		for i := range in {
			byOrdinal[in[i].Ordinal] = firstOut(i)
		}
	}
	for i := range out {
		out[i].Ordinal = i
		if p := out[i].Parent; p >= 0 {
			if positional {
				if p < len(in) {
					out[i].Parent = firstOut(p)
				} else {
					out[i].Parent = 0
				}
			} else {
				out[i].Parent = byOrdinal[p]
			}
		}
	}
}

// lineCursor counts line breaks before offsets of one text that mostly
// move forward (chunk starts never go back; chunk ends always advance).
type lineCursor struct {
	text             string
	startOff, starts int // line breaks in text[:startOff]
	endOff, ends     int // line breaks in text[:endOff]
}

func newLineCursor(text string) *lineCursor { return &lineCursor{text: text} }

func (c *lineCursor) count(off int) int {
	c.startOff, c.starts = advanceLines(c.text, c.startOff, c.starts, off)
	return c.starts
}

func (c *lineCursor) countEnd(off int) int {
	c.endOff, c.ends = advanceLines(c.text, c.endOff, c.ends, off)
	return c.ends
}

func advanceLines(text string, from, n, to int) (int, int) {
	if to < from {
		from, n = 0, 0
	}
	return to, n + strings.Count(text[from:to], "\n")
}

// linkWork bounds the work of matching a cut section's links to its parts
// by text (len(links) × len(text) byte comparisons, some tens of
// milliseconds); past it, links are placed by where they were found.
const linkWork = 1 << 26

// linkCursor walks the link positions of the sections in order.
type linkCursor struct {
	in     []Section
	linkAt []int32
	next   int // input index whose links start at off
	off    int
}

func newLinkCursor(in []Section, linkAt []int32) *linkCursor {
	n := 0
	for i := range in {
		n += len(in[i].Links)
	}
	if n != len(linkAt) {
		linkAt = nil // the sections were changed after Parse: match by text
	}
	return &linkCursor{in: in, linkAt: linkAt}
}

// section returns the links of input section i, placed by text when that
// is affordable (always the case for what people write) and by position
// otherwise.
func (c *linkCursor) section(i int) *sectionLinks {
	for ; c.next < i; c.next++ {
		c.off += len(c.in[c.next].Links)
	}
	s := &sectionLinks{links: c.in[i].Links, byText: true}
	if c.linkAt != nil && len(s.links) > 0 && len(s.links)*len(c.in[i].Text) > linkWork {
		s.byText = false
		s.at = c.linkAt[c.off : c.off+len(s.links)]
		s.order = make([]int, len(s.links))
		for k := range s.order {
			s.order[k] = k
		}
		slices.SortStableFunc(s.order, func(a, b int) int { return int(s.at[a]) - int(s.at[b]) })
	}
	return s
}

// sectionLinks are one section's links and, when they are placed by
// position, where in the section's text each was found.
type sectionLinks struct {
	links  []string
	byText bool
	at     []int32
	order  []int // link indices by position
}

// within returns the links of the part text = section text[start:end], in
// their order in the section: those whose destination the part's text
// contains, or those found inside it when placed by position.
func (s *sectionLinks) within(text string, start, end int) []string {
	var out []string
	if s.byText {
		for _, l := range s.links {
			if strings.Contains(text, l) {
				out = append(out, l)
			}
		}
		return out
	}
	lo := sort.Search(len(s.order), func(j int) bool { return int(s.at[s.order[j]]) >= start })
	var picked []int
	for _, k := range s.order[lo:] {
		if int(s.at[k]) >= end {
			break
		}
		picked = append(picked, k)
	}
	slices.Sort(picked)
	for _, k := range picked {
		out = append(out, s.links[k])
	}
	return out
}

type span struct{ start, end int }

// chunker cuts the sections of one document.
type chunker struct {
	Options
	spaces map[int]int // tokens of runs of n spaces (see prefixMeasure)
}

type chunk struct {
	span
	tokens int
}

// chunkText packs whole paragraphs into chunks of at most MaxSectionTokens;
// a paragraph bigger than that is cut at sentence, then word boundaries,
// and a word bigger than that (a run of thousands of characters with no
// space) into slices. Each unit is counted once; a chunk's count is the sum
// of its units' (BPE merges never cross the blank lines between
// paragraphs, so the sum is within a token or two of counting the chunk
// again). tokens is the count of s, kept for a paragraph that is all of it.
func (ck *chunker) chunkText(s string, tokens int) []chunk {
	opts := ck.Options
	var units []chunk
	for p := range paragraphs(s) {
		sp := span{p.start, p.end}
		t := tokens
		if p.start != 0 || p.end != len(s) {
			t = countTokens(opts.CountTokens, s[p.start:p.end])
		}
		if t <= opts.MaxSectionTokens {
			units = append(units, chunk{sp, t})
			continue
		}
		for _, c := range ck.cutSpan(s, sp, t) {
			t := countTokens(opts.CountTokens, s[c.start:c.end])
			if t > opts.MaxSectionTokens && c.end-c.start > maxRun {
				units = append(units, slicesOf(s, c, opts)...)
				continue
			}
			units = append(units, chunk{c, t})
		}
	}
	var out []chunk
	cur := chunk{span: span{-1, -1}}
	for i, u := range units {
		t := u.tokens
		if cur.start >= 0 && cur.tokens+t > opts.MaxSectionTokens {
			out = append(out, cur)
			// Overlap: start the next chunk with trailing units of this one.
			start := u.start
			ov := 0
			for j := i - 1; j >= 0 && units[j].start >= cur.start; j-- {
				if ov+units[j].tokens > opts.OverlapTokens || units[j].tokens+t > opts.MaxSectionTokens {
					break
				}
				ov += units[j].tokens
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

// cutSpan splits an oversized paragraph at sentence ends and at line
// breaks before an indent (code: a block of tab-indented Go lines with no
// blank line between them is cut between two lines, not inside one),
// falling back to word boundaries for a single enormous sentence. The count of
// the paragraph (whole), kept for a sentence that is all of it.
func (ck *chunker) cutSpan(s string, sp span, whole int) []span {
	opts := ck.Options
	var out []span
	cur := span{-1, -1}
	tokens := 0
	flush := func() {
		if cur.start >= 0 {
			out = append(out, cur)
		}
		cur, tokens = span{-1, -1}, 0
	}
	add := func(p span) {
		t := whole
		if p != sp {
			t = countTokens(opts.CountTokens, s[p.start:p.end])
		}
		if t > opts.MaxSectionTokens {
			flush()
			out = append(out, ck.cutWords(s, p)...)
			return
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
	start := sp.start
	for i := sp.start; i < sp.end; i++ {
		c := s[i]
		if (c == '.' || c == '?' || c == '!' || c == '\n') && i+1 < sp.end && (s[i+1] == ' ' || s[i+1] == '\n' || s[i+1] == '\t') {
			add(span{start, i + 1})
			start = i + 1
		}
	}
	if start < sp.end {
		add(span{start, sp.end})
	}
	flush()
	return out
}

// cutWords cuts a sentence at the last space or line break before its
// tokens pass MaxSectionTokens, again and again. The count of the text
// since the last cut is kept up to date word by word (prefixMeasure), not
// recounted whole at every word.
func (ck *chunker) cutWords(s string, sp span) []span {
	opts := ck.Options
	var out []span
	m := prefixMeasure{s: s, count: opts.CountTokens, estimate: opts.estimate, spaces: ck.spaces}
	start, last := sp.start, sp.start
	m.reset(start)
	for i := sp.start; i <= sp.end; i++ {
		if i == sp.end || s[i] == ' ' || s[i] == '\n' {
			if last > start && m.exceeds(i, opts.MaxSectionTokens) {
				out = append(out, span{start, last})
				start = last
				m.reset(start)
			}
			last = i
		}
	}
	if start < sp.end {
		out = append(out, span{start, sp.end})
	}
	return out
}

// slicesOf cuts a word too big for any chunk into slices no longer than
// runSlice bytes (nor than MaxSectionTokens bytes, so that each fits: no
// token is shorter than a byte), at character boundaries.
func slicesOf(s string, sp span, opts Options) []chunk {
	size := min(runSlice, max(1, opts.MaxSectionTokens))
	var out []chunk
	for at := sp.start; at < sp.end; {
		end := min(at+size, sp.end)
		for end < sp.end && end > at+1 && !utf8.RuneStart(s[end]) {
			end--
		}
		if end < sp.end && !utf8.RuneStart(s[end]) { // one rune longer than size
			end = at + 1
			for end < sp.end && !utf8.RuneStart(s[end]) {
				end++
			}
		}
		out = append(out, chunk{span{at, end}, countTokens(opts.CountTokens, s[at:end])})
		at = end
	}
	return out
}
