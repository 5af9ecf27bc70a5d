package classify

import (
	"encoding/json"
	"strings"
)

// lineFlag marks facts about a line beyond its kind.
type lineFlag uint8

const (
	flagFixed     lineFlag = 1 << iota // inside a fence or a JSON/XML block: smoothing leaves it alone
	flagTimestamp                      // carries a timestamp
)

// lineRec is one physical line: text[start:end], without its terminator.
type lineRec struct {
	start, end int
	kind       lineKind
	seg        segClass
	flags      lineFlag
}

// analysis is everything measured about one text; Classify and Split both
// start from it.
type analysis struct {
	text  string
	cfg   *config
	lines []lineRec
	words wordStats
	prose proseStats

	content     int // non-blank bytes (each line trimmed)
	segBytes    [numSegs]int
	codeBlocks  int
	jsonBytes   int
	markupBytes int
	wholeJSON   bool
	wholeXML    bool

	codeLines, logLines, stackLines, timestamps, blankLines, indentedLines int

	firstSeg, lastSeg segClass // classes of the first and last non-blank lines
}

// analyze measures text. It fills *a rather than returning a new value so
// that the analysis itself can live on the caller's stack.
func analyze(a *analysis, text string, cfg *config) {
	*a = analysis{text: text, cfg: cfg}
	a.words = measureWords(text)
	a.scanLines()
	a.checkWholeXML()
	a.smooth()
	a.accumulate()
}

// lineBounds returns the end of the line starting at pos (without "\n" or
// "\r\n") and the start of the next one.
func lineBounds(text string, pos int) (end, next int) {
	i := strings.IndexByte(text[pos:], '\n')
	if i < 0 {
		end, next = len(text), len(text)
	} else {
		end, next = pos+i, pos+i+1
	}
	if end > pos && text[end-1] == '\r' {
		end--
	}
	return end, next
}

// contentBounds returns the offsets of the first non-space byte and just past
// the last one (0, 0 for blank text).
func contentBounds(text string) (first, last int) {
	for first < len(text) && (isSpace(text[first]) || text[first] == '\n') {
		first++
	}
	last = len(text)
	for last > first && (isSpace(text[last-1]) || text[last-1] == '\n') {
		last--
	}
	return first, last
}

// fence is an open fenced code block.
type fence struct {
	open  bool
	char  byte
	n     int
	first int // index of the opening line
	info  lineKind
}

// fenceOpener matches "```lang" or "~~~" with at most three spaces of
// indentation and returns the kind its content lines default to.
func fenceOpener(t string, indent int) (fence, bool) {
	if indent > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return fence{}, false
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return fence{}, false
	}
	info, _ := trimSpace(t[n:])
	if t[0] == '`' && strings.IndexByte(info, '`') >= 0 {
		return fence{}, false
	}
	if sp := strings.IndexAny(info, " {,"); sp >= 0 {
		info = info[:sp]
	}
	kind := kindCode
	switch strings.ToLower(info) {
	case "json", "jsonc", "json5", "jsonl", "ndjson", "xml", "html", "svg", "yaml", "yml", "toml":
		kind = kindStructured
	case "csv", "tsv":
		kind = kindData
	}
	return fence{open: true, char: t[0], n: n, info: kind}, true
}

func (f *fence) closes(t string, indent int) bool {
	if indent > 3 || len(t) < f.n {
		return false
	}
	n := 0
	for n < len(t) && t[n] == f.char {
		n++
	}
	return n >= f.n && n == len(t)
}

// scanLines gives every line a kind on its own merits, handling fences and
// JSON blocks, which span lines.
func (a *analysis) scanLines() {
	text := a.text
	a.lines = make([]lineRec, 0, strings.Count(text, "\n")+1)
	first, last := contentBounds(text)
	var f fence
	inComment := false // inside a /* ... */ block comment
	noRetry := 0       // JSON detection is not retried before this offset
	for pos := 0; pos < len(text); {
		end, next := lineBounds(text, pos)
		t, indent := trimSpace(text[pos:end])
		rec := lineRec{start: pos, end: end}
		switch {
		case f.open:
			rec.flags |= flagFixed
			if f.closes(t, indent) {
				rec.kind = kindFence
				f.open = false
				a.content += len(t)
				a.lines = append(a.lines, rec)
				a.closeFence(f.first)
				pos = next
				continue
			}
			rec.kind, rec.flags = fenceContent(t, indent, f.info, rec.flags)
		case t == "":
			rec.kind = kindBlank
		case inComment || strings.HasPrefix(t, "/*"):
			rec.kind = kindCode
			inComment = !strings.Contains(t, "*/")
		default:
			if nf, ok := fenceOpener(t, indent); ok {
				f = nf
				f.first = len(a.lines)
				rec.kind = kindFence
				rec.flags |= flagFixed
				a.codeBlocks++
				break
			}
			if (t[0] == '{' || t[0] == '[') && pos+indent >= noRetry {
				stop, ok := a.jsonBlock(pos, pos+indent, first, last)
				if ok {
					pos = stop
					continue
				}
				noRetry = stop
			}
			rec.kind, rec.flags = classifyLine(t, indent, text[pos] == '\t')
			if rec.kind == kindStructured {
				a.markupBytes += len(t)
			}
		}
		a.content += len(t)
		rec.seg = rec.kind.seg()
		a.lines = append(a.lines, rec)
		pos = next
	}
	if f.open {
		a.closeFence(f.first) // unclosed fences run to the end, as in CommonMark
	}
}

// classifyLine decides the kind of a non-blank line outside fences and JSON
// blocks. Order matters: stack frames and log records are recognised before
// anything else, markup and data before code.
func classifyLine(t string, indent int, tab bool) (lineKind, lineFlag) {
	if isStackLine(t, indent) {
		return kindStack, 0
	}
	if hasTimestamp(t) {
		return kindLog, flagTimestamp
	}
	if hasLevel(t) {
		return kindLog, 0
	}
	if isHeading(t) {
		return kindHeading, 0
	}
	if isMarkup(t) {
		return kindStructured, 0
	}
	if isTableRow(t) {
		return kindProse, 0
	}
	list := listItemLen(t) > 0
	f := measure(t)
	if !list && isDataLine(t, &f) {
		return kindData, 0
	}
	if codeScore(t, &f, tab || indent >= 4, list) >= 2 {
		return kindCode, 0
	}
	return kindProse, 0
}

// fenceContent decides the kind of a line inside a fence: log records and
// stack frames are recognised, everything else takes the fence's kind.
func fenceContent(t string, indent int, info lineKind, flags lineFlag) (lineKind, lineFlag) {
	switch {
	case t == "":
		return kindBlank, flags
	case isStackLine(t, indent):
		return kindStack, flags
	case hasTimestamp(t):
		return kindLog, flags | flagTimestamp
	case info == kindCode && hasLevel(t):
		return kindLog, flags
	}
	return info, flags
}

// closeFence gives every non-blank line of the fence opened at line first
// the class that holds most of the fence's content bytes (code on a tie), so
// a fenced log stays one part.
func (a *analysis) closeFence(first int) {
	var bytes [numSegs]int
	lines := a.lines[first:]
	for _, l := range lines {
		if l.kind != kindFence && l.kind != kindBlank {
			bytes[l.kind.seg()] += l.end - l.start
		}
	}
	best := segCode
	for s := segProse; s < numSegs; s++ {
		if bytes[s] > bytes[best] {
			best = s
		}
	}
	for i := range lines {
		if lines[i].kind != kindBlank {
			lines[i].seg = best
		}
	}
}

type jsonStatus uint8

const (
	jsonInvalid  jsonStatus = iota // a byte JSON cannot hold outside a string
	jsonClosed                     // brackets balanced
	jsonUnclosed                   // ran off the end with brackets open
)

// jsonExtent walks a JSON value starting at s[p] ('{' or '['), tracking
// strings and bracket depth only. It returns the offset just past the value
// (or of the offending byte) and the number of object keys seen.
func jsonExtent(s string, p int) (end int, st jsonStatus, keys int) {
	depth := 0
	for i := p; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				} else if s[j] == '\n' {
					return j, jsonInvalid, keys
				}
				j++
			}
			if j >= len(s) {
				return len(s), jsonUnclosed, keys
			}
			k := j + 1
			for k < len(s) && (isSpace(s[k]) || s[k] == '\n') {
				k++
			}
			if k < len(s) && s[k] == ':' {
				keys++
			}
			i = j
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, jsonClosed, keys
			}
		case ' ', '\t', '\n', '\r', ',', ':', '-', '+', '.', 'e', 'E',
			't', 'r', 'u', 'f', 'a', 'l', 's', 'n':
		default:
			if !isDigit(c) {
				return i, jsonInvalid, keys
			}
		}
	}
	return len(s), jsonUnclosed, keys
}

// jsonBlock tries to read a JSON value starting at offset p on the line that
// starts at pos. On success it appends the lines the value spans as
// structured and returns the offset of the line after it. On failure it
// returns the offset before which detection should not be retried.
func (a *analysis) jsonBlock(pos, p, first, last int) (int, bool) {
	text := a.text
	end, st, keys := jsonExtent(text, p)
	switch st {
	case jsonClosed:
		lineEnd, _ := lineBounds(text, end)
		rest, _ := trimSpace(text[end:lineEnd])
		rest = strings.TrimLeft(rest, ",; \t")
		multi := strings.IndexByte(text[p:end], '\n') >= 0
		whole := p == first && end == last
		if rest != "" || !(keys > 0 || multi || whole) || !jsonValid(text[p:end]) {
			return end, false
		}
		if whole {
			a.wholeJSON = true
		}
	case jsonUnclosed:
		// A truncated paste: accept it when it has the look of JSON.
		if keys < 2 || strings.Count(text[p:], "\n") < 2 {
			return len(text), false
		}
		end = len(text)
		if p == first {
			a.wholeJSON = true
		}
	default:
		return end, false
	}
	q := pos
	for q < len(text) && q < end {
		e, next := lineBounds(text, q)
		t, _ := trimSpace(text[q:e])
		rec := lineRec{start: q, end: e, kind: kindStructured, seg: segStructured, flags: flagFixed}
		if t == "" {
			rec.kind, rec.seg = kindBlank, segNone
		}
		a.content += len(t)
		a.jsonBytes += len(t)
		a.lines = append(a.lines, rec)
		q = next
	}
	return q, true
}

// checkWholeXML marks the text as one XML/HTML document when it starts and
// ends with markup and markup lines hold at least half its bytes; all its
// lines then count as structured.
func (a *analysis) checkWholeXML() {
	first, last := contentBounds(a.text)
	if last-first < 3 || a.markupBytes*2 < a.content {
		return
	}
	t := a.text[first:last]
	if c := t[1]; t[0] != '<' || t[len(t)-1] != '>' || !(isAlpha(c) || c == '?' || c == '!') {
		return
	}
	a.wholeXML = true
	for i := range a.lines {
		if a.lines[i].kind != kindBlank {
			a.lines[i].seg = segStructured
			a.lines[i].flags |= flagFixed
		}
	}
}

// smooth fixes lines whose kind is clear only from their neighbours: up to
// two lines between two code lines are code (comments, docstrings, import
// paths), up to two lines between two log or stack lines are part of the log
// (continuations, the source lines of a Python traceback, Go's function
// lines), and a '#' line touching code is a comment, not a markdown heading.
// Blank lines, fences and JSON/XML blocks stop the smoothing.
func (a *analysis) smooth() {
	lines := a.lines
	free := func(i int) bool { return i >= 0 && i < len(lines) && lines[i].flags&flagFixed == 0 }
	const maxGap = 2
	for i := 0; i < len(lines); i++ {
		anchor := lines[i].kind.seg()
		if !free(i) || (anchor != segCode && anchor != segLogs) {
			continue
		}
		k := i + 1
		for k < len(lines) && k-i-1 <= maxGap && free(k) && lines[k].kind != kindBlank && lines[k].kind.seg() != anchor {
			if anchor == segCode && lines[k].kind.seg() == segLogs {
				break // a log line inside code stays a log line
			}
			k++
		}
		if k == i+1 || k-i-1 > maxGap || !free(k) || lines[k].kind.seg() != anchor {
			continue
		}
		kind := kindCode
		if anchor == segLogs {
			kind = kindLog
			if lines[i].kind == kindStack || lines[k].kind == kindStack {
				kind = kindStack
			}
		}
		for j := i + 1; j < k; j++ {
			lines[j].kind = kind
		}
		i = k - 1
	}
	touchesCode := func(i int) bool {
		return free(i-1) && lines[i-1].kind == kindCode || free(i+1) && lines[i+1].kind == kindCode
	}
	for i := range lines {
		if free(i) && lines[i].kind == kindHeading && touchesCode(i) {
			lines[i].kind = kindCode
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if free(i) && lines[i].kind == kindHeading && touchesCode(i) {
			lines[i].kind = kindCode
		}
	}
	for i := range lines {
		if free(i) {
			lines[i].seg = lines[i].kind.seg()
		}
	}
}

// accumulate counts lines by kind and class and runs the sentence analysis
// over the prose.
func (a *analysis) accumulate() {
	a.content = 0
	for _, l := range a.lines {
		t, indent := trimSpace(a.text[l.start:l.end])
		if t == "" {
			a.blankLines++
			continue
		}
		if indent > 0 {
			a.indentedLines++
		}
		a.segBytes[l.seg] += len(t)
		a.content += len(t)
		if a.firstSeg == segNone {
			a.firstSeg = l.seg
		}
		a.lastSeg = l.seg
		switch l.kind {
		case kindCode:
			a.codeLines++
		case kindLog:
			a.logLines++
		case kindStack:
			a.stackLines++
		}
		if l.flags&flagTimestamp != 0 {
			a.timestamps++
		}
	}
	a.feedProse(&a.prose, 0, len(a.lines))
}

// feedProse runs the sentence analysis over the prose lines in
// a.lines[from:to]; any other line ends the sentence in progress.
func (a *analysis) feedProse(p *proseStats, from, to int) {
	for _, l := range a.lines[from:to] {
		if l.seg != segProse {
			p.startBlock()
			continue
		}
		t, _ := trimSpace(a.text[l.start:l.end])
		switch {
		case l.kind == kindHeading:
			p.startBlock()
			p.headings++
			p.line(strings.TrimLeft(t, "# "))
			p.startBlock()
		case isTableRow(t):
			p.startBlock()
			p.line(t)
			p.startBlock()
		default:
			if n := listItemLen(t); n > 0 {
				p.startBlock()
				p.listItems++
				t = t[n:]
			}
			p.line(t)
		}
	}
	p.startBlock()
}

// jsonValid reports whether s is valid JSON. It runs only on blocks whose
// brackets already balance, so the copy is paid once per block.
func jsonValid(s string) bool { return json.Valid([]byte(s)) }
