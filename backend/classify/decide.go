package classify

import "math"

// This file turns an analysis into a Classification: the type precedence and
// the complexity formula documented in the package comment.

// Shares are compared as integer byte counts: share ≥ n/d ⇔ bytes·d ≥ content·n.
const (
	dominantNum, dominantDen = 3, 5  // a non-prose kind holding ≥ 60% names the type
	payloadNum, payloadDen   = 1, 4  // ≥ 25% non-prose next to a query makes it mixed
	mixtureNum, mixtureDen   = 1, 20 // a kind holding ≥ 5% counts towards the mixture
	binaryDen                = 4     // > 25% non-text bytes is binary
)

func (a *analysis) signals() Signals {
	w := a.words
	s := Signals{
		Bytes:           len(a.text),
		Lines:           len(a.lines),
		Words:           w.words,
		CodeBlocks:      a.codeBlocks,
		CodeLines:       a.codeLines,
		LogLines:        a.logLines,
		Timestamps:      a.timestamps,
		StackTraceLines: a.stackLines,
		JSONLike:        a.wholeJSON || a.content > 0 && a.jsonBytes*2 >= a.content,
		XMLLike:         a.wholeXML || a.content > 0 && a.markupBytes*2 >= a.content,
		QuestionMarks:   a.prose.qmarks,
		Interrogatives:  a.prose.interrog,
		Requests:        a.prose.requests,
		Sentences:       a.prose.sentences,
		MultiPartCues:   a.prose.cues,
		Headings:        a.prose.headings,
		ListItems:       a.prose.listItems,
		BlankLines:      a.blankLines,
		IndentedLines:   a.indentedLines,
		NonTextBytes:    w.nonText,
	}
	if w.words > 0 {
		n := float64(w.words)
		s.LexicalDiversity = float64(w.unique) / n
		s.AvgWordLen = float64(w.letters) / n
		s.SyllablesPerWord = float64(w.syllables) / n
	}
	if len(a.text) > 0 {
		s.WhitespaceRatio = float64(w.whitespace) / float64(len(a.text))
	}
	if a.content > 0 {
		c := float64(a.content)
		s.Shares = Shares{
			Prose:      float64(a.segBytes[segProse]) / c,
			Code:       float64(a.segBytes[segCode]) / c,
			Logs:       float64(a.segBytes[segLogs]) / c,
			Data:       float64(a.segBytes[segData]) / c,
			Structured: float64(a.segBytes[segStructured]) / c,
		}
	}
	return s
}

func (a *analysis) classification() Classification {
	sig := a.signals()
	typ, query := a.decide()
	return Classification{Type: typ, Complexity: a.complexity(sig, typ, query), Signals: sig}
}

// readsAsQuery applies the query test of the package comment to p.
func readsAsQuery(p *proseStats, maxBytes int) bool {
	if p.bytes == 0 || p.bytes > maxBytes || p.headings > 0 || p.sentences == 0 {
		return false
	}
	if p.questions > 0 && (p.lastQuestion || 2*p.questions >= p.sentences) {
		return true
	}
	return p.firstRequest && p.sentences <= 3
}

// decide applies the type precedence; query reports whether the prose part
// reads as a query (also true for a mixed question-with-paste).
func (a *analysis) decide() (typ ContentType, query bool) {
	if a.content == 0 {
		return TypeProse, false
	}
	if a.wholeJSON || a.wholeXML {
		return TypeStructured, false
	}
	if a.words.words == 0 || a.words.nonText*binaryDen > len(a.text) {
		return TypePastedData, false
	}
	query = readsAsQuery(&a.prose, a.cfg.maxQueryBytes)
	nonProse := a.content - a.segBytes[segProse]
	asksAround := a.firstSeg == segProse || a.lastSeg == segProse // the question opens or closes the paste
	if query && asksAround && nonProse*payloadDen >= a.content*payloadNum {
		return TypeMixed, true
	}
	best := segCode
	for _, s := range [...]segClass{segLogs, segStructured, segData} {
		if a.segBytes[s] > a.segBytes[best] {
			best = s
		}
	}
	if a.segBytes[best]*dominantDen >= a.content*dominantNum {
		switch best {
		case segLogs:
			return TypeLogs, false
		case segStructured:
			return TypeStructured, false
		case segData:
			return TypePastedData, false
		}
		return TypeCode, false
	}
	if a.segBytes[segProse]*2 >= a.content {
		if !query {
			return TypeProse, false
		}
		p := &a.prose
		if p.questions >= 2 || p.listItems >= 2 || p.cues >= 1 || p.words > 40 {
			return TypeComplexQuery, true
		}
		return TypeSimpleQuery, true
	}
	return TypeMixed, query
}

// Complexity weights; see the package comment.
const (
	weightLength    = 0.30
	weightDiversity = 0.10
	weightWording   = 0.10
	weightParts     = 0.25
	weightMixture   = 0.25

	lengthSaturation    = 4096 // words at which the length term reaches 1
	guiraudSaturation   = 12   // unique/sqrt(words) at which diversity reaches 1
	partsSaturation     = 5    // question parts at which the parts term reaches 1
	mixtureTwoKinds     = 0.75 // mixture term for two kinds; three or more give 1
	wordLenBase         = 3.0  // mean word length scoring 0 ...
	wordLenSpan         = 4.0  // ... and the span up to scoring 1
	syllablesPerWordMin = 1.0  // one syllable per word scores 0, two score 1
)

func clamp01(x float64) float64 {
	if !(x > 0) { // also catches NaN
		return 0
	}
	return math.Min(x, 1)
}

func (a *analysis) complexity(sig Signals, typ ContentType, query bool) float64 {
	if a.content == 0 || sig.Words == 0 {
		return 0
	}
	words := float64(sig.Words)
	length := clamp01(math.Log2(1+words) / math.Log2(1+lengthSaturation))
	diversity := clamp01(float64(a.words.unique) / math.Sqrt(words) / guiraudSaturation)
	wording := 0.5*clamp01((sig.AvgWordLen-wordLenBase)/wordLenSpan) +
		0.5*clamp01(sig.SyllablesPerWord-syllablesPerWordMin)

	p := &a.prose
	parts := p.questions
	if query {
		parts += p.requests + p.listItems + p.cues
	}
	partsTerm := clamp01(float64(parts) / partsSaturation)

	kinds := 0
	for s := segProse; s < numSegs; s++ {
		if a.segBytes[s] > 0 && a.segBytes[s]*mixtureDen >= a.content*mixtureNum {
			kinds++
		} else if s == segProse && query && a.segBytes[s] > 0 {
			kinds++ // a one-line question over a long paste still counts
		}
	}
	mixture := 0.0
	switch {
	case kinds >= 3 || typ == TypeMixed && query:
		mixture = 1
	case kinds == 2 || typ == TypeMixed:
		mixture = mixtureTwoKinds
	}

	c := weightLength*length + weightDiversity*diversity + weightWording*wording +
		weightParts*partsTerm + weightMixture*mixture
	return clamp01(c)
}

// part is a byte range of the text that Split makes a unit of.
type part struct{ start, end int }

// paragraph is a stretch of lines of one class ending at a blank line (which
// joins it) or where the class changes.
type paragraph struct {
	seg         segClass
	first, last int // line indexes, [first, last)
	bytes       int // non-blank bytes
}

// group is a maximal sequence of paragraphs of one class.
type group struct {
	seg      segClass
	first    int // first line
	bytes    int
	asks     bool // prose holding a question or request
	askFirst int  // first line of the first asking paragraph
}

func (a *analysis) paragraphs() []paragraph {
	var paras []paragraph
	afterBlank := false
	for i, l := range a.lines {
		if l.seg == segNone {
			if len(paras) > 0 {
				paras[len(paras)-1].last = i + 1
			}
			afterBlank = true
			continue
		}
		if len(paras) == 0 || afterBlank || paras[len(paras)-1].seg != l.seg {
			paras = append(paras, paragraph{seg: l.seg, first: i})
		}
		afterBlank = false
		p := &paras[len(paras)-1]
		p.last = i + 1
		t, _ := trimSpace(a.text[l.start:l.end])
		p.bytes += len(t)
	}
	return paras
}

// parts decides where Split cuts. Paragraphs of one class form a group; a
// group stands alone when it holds at least minUnit bytes or, for prose,
// asks something. Groups that cannot stand alone fold into the group before
// them (leading ones into the group after), and a short asking prose group
// hands the paragraphs before its question to the group before it, so a
// trailing "exit status 2" stays with its log. It returns the byte ranges,
// or nil when everything is one part.
func (a *analysis) parts(minUnit int) []part {
	paras := a.paragraphs()
	if len(paras) < 2 {
		return nil
	}
	var groups []group
	for _, p := range paras {
		if len(groups) == 0 || groups[len(groups)-1].seg != p.seg {
			groups = append(groups, group{seg: p.seg, first: p.first})
		}
		g := &groups[len(groups)-1]
		g.bytes += p.bytes
	}
	// Whether a prose group asks matters only when it is too small to stand
	// on its own, so big groups are not read again.
	pi := 0
	for gi := range groups {
		g := &groups[gi]
		for pi < len(paras) && paras[pi].first < g.first {
			pi++
		}
		if g.seg != segProse || g.bytes >= minUnit {
			continue
		}
		for k := pi; k < len(paras) && paras[k].seg == segProse && (gi+1 == len(groups) || paras[k].first < groups[gi+1].first); k++ {
			if a.paragraphAsks(paras[k]) {
				g.asks, g.askFirst = true, paras[k].first
				break
			}
		}
	}
	if len(groups) < 2 {
		return nil
	}
	var starts []int // first line of each unit
	var last segClass
	for i, g := range groups {
		standalone := g.bytes >= minUnit || g.asks
		switch {
		case !standalone || len(starts) > 0 && g.seg == last:
			// folds into the unit before, or, leading, into the one after
		case len(starts) == 0:
			starts = append(starts, 0)
			last = g.seg
		default:
			first := g.first
			if i > 0 && g.seg == segProse && g.asks && g.bytes < minUnit {
				first = g.askFirst
			}
			starts = append(starts, a.lines[first].start)
			last = g.seg
		}
	}
	if len(starts) < 2 {
		return nil
	}
	parts := make([]part, len(starts))
	for i, st := range starts {
		parts[i] = part{start: st, end: len(a.text)}
		if i > 0 {
			parts[i-1].end = st
		}
	}
	return parts
}

// paragraphAsks reports whether a prose paragraph holds a question or a
// request of at least three words — the conversational part of a paste,
// which stands as its own unit however short.
func (a *analysis) paragraphAsks(p paragraph) bool {
	var ps proseStats
	a.feedProse(&ps, p.first, p.last)
	return (ps.questions > 0 || ps.requests > 0) && ps.words >= 3
}
