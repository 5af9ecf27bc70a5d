package classify

import (
	"unicode"
	"unicode/utf8"
)

// wordStats are the whole-text lexical measurements.
type wordStats struct {
	words, unique int
	letters       int // runes inside words
	syllables     int
	whitespace    int
	nonText       int
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
	smallSeen = 64 // distinct words tracked in a stack array before a map is needed
)

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		c := byte(r)
		return isIdent(c)
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func isVowel(c byte) bool {
	switch c | 0x20 {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

// measureWords counts words, distinct words (case-insensitive, by 64-bit
// FNV-1a hash), letters and syllables, plus whitespace and non-text bytes,
// in one pass. Short texts never touch the heap.
func measureWords(s string) wordStats {
	var ws wordStats
	var small [smallSeen]uint64
	nSmall := 0
	var seen map[uint64]struct{}

	var (
		inWord     bool
		hash       uint64
		runes      int
		groups     int
		prevVowel  bool
		last, prev byte // last two ASCII letters of the word, lowered
	)
	endWord := func() {
		ws.words++
		ws.letters += runes
		if last == 'e' && prev != 'l' && groups > 1 {
			groups-- // silent e: "code", "make"; not "table"
		}
		ws.syllables += max(groups, 1)
		if seen == nil {
			for i := 0; i < nSmall; i++ {
				if small[i] == hash {
					return
				}
			}
			if nSmall < smallSeen {
				small[nSmall] = hash
				nSmall++
				return
			}
			seen = make(map[uint64]struct{}, min(len(s)/6+smallSeen, 1<<16))
			for _, h := range small {
				seen[h] = struct{}{}
			}
		}
		seen[hash] = struct{}{}
	}

	for i := 0; i < len(s); {
		c := s[i]
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case isWordRune(r) && !(r == utf8.RuneError && size == 1):
			if !inWord {
				inWord, hash, runes, groups, prevVowel, last, prev = true, fnvOffset, 0, 0, false, 0, 0
			}
			runes++
			if r < utf8.RuneSelf {
				lc := c | 0x20
				if !isAlpha(c) {
					lc = c
				}
				hash = (hash ^ uint64(lc)) * fnvPrime
				if isAlpha(c) {
					v := isVowel(c)
					if v && !prevVowel {
						groups++
					}
					prevVowel = v
					prev, last = last, lc
				} else {
					prevVowel = false
				}
			} else {
				lr := unicode.ToLower(r)
				for k := 0; k < 4; k++ {
					hash = (hash ^ uint64(byte(lr>>(8*k)))) * fnvPrime
				}
				prevVowel, last, prev = false, 0, 0
			}
		case inWord && (c == '\'' || r == '’') && i+size < len(s) && isAlpha(s[i+size]):
			hash = (hash ^ '\'') * fnvPrime // "don't" is one word
		default:
			if inWord {
				endWord()
				inWord = false
			}
			switch {
			case c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
				ws.whitespace++
			case r == utf8.RuneError && size == 1:
				ws.nonText++
			case c < 0x20 || c == 0x7f:
				ws.nonText++
			case r >= utf8.RuneSelf && (unicode.IsControl(r) || r == utf8.RuneError):
				ws.nonText += size
			case r >= utf8.RuneSelf && unicode.IsSpace(r):
				ws.whitespace += size
			}
		}
		i += size
	}
	if inWord {
		endWord()
	}
	if seen != nil {
		ws.unique = len(seen)
	} else {
		ws.unique = nSmall
	}
	return ws
}

// proseStats accumulates sentence-level measurements over prose lines.
type proseStats struct {
	bytes     int // non-blank bytes of prose lines
	words     int
	sentences int
	questions int // sentences that are questions
	qmarks    int // sentences ending in '?'
	interrog  int // sentences opening with an interrogative
	requests  int // sentences opening with a request verb
	cues      int // multi-part cues
	headings  int
	listItems int

	firstRequest bool // the first sentence opens with a request verb
	lastQuestion bool // the last sentence is a question

	// current sentence
	open      bool
	curWords  int
	curInterr bool
	curReq    bool
	skipLead  bool // first word was a filler ("so", "and"); look at the next
	prevCue   byte // previous word for two-word cues: 'a' = "as", 'i' = "in"
}

const maxCueBytes = 8 << 10

// startBlock ends the current sentence at a structural boundary: a blank
// line, a non-prose line, a heading or a list item.
func (p *proseStats) startBlock() { p.endSentence(false, false) }

func (p *proseStats) endSentence(question, period bool) {
	if !p.open {
		return
	}
	p.open = false
	if p.curWords == 0 {
		return
	}
	p.sentences++
	q := question || (p.curInterr && !period)
	if question {
		p.qmarks++
	}
	if q {
		p.questions++
	}
	if p.curInterr {
		p.interrog++
	}
	if p.curReq {
		p.requests++
		if p.sentences == 1 {
			p.firstRequest = true
		}
	}
	p.lastQuestion = q
}

// line feeds one prose line (already trimmed, list marker removed).
func (p *proseStats) line(t string) {
	p.bytes += len(t)
	var buf [16]byte
	for i := 0; i < len(t); {
		c := t[i]
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(t[i:])
		}
		if isWordRune(r) && !(r == utf8.RuneError && size == 1) {
			j := i + size
			for j < len(t) {
				d := t[j]
				if d < utf8.RuneSelf {
					if isIdent(d) || (d == '\'' || d == '-') && j+1 < len(t) && isAlpha(t[j+1]) {
						j++
						continue
					}
					break
				}
				r2, s2 := utf8.DecodeRuneInString(t[j:])
				if r2 == '’' && j+s2 < len(t) && isAlpha(t[j+s2]) || isWordRune(r2) && !(r2 == utf8.RuneError && s2 == 1) {
					j += s2
					continue
				}
				break
			}
			n := lowerASCII(&buf, t[i:j])
			p.word(buf[:n], j-i <= len(buf))
			i = j
			continue
		}
		switch c {
		case '.', '!', '?':
			// A sentence ends at terminal punctuation followed by space or
			// the end of the line ("3.14", "e.g.x", "a?b" do not end one).
			j := i + 1
			q := c == '?'
			for j < len(t) && (t[j] == '.' || t[j] == '!' || t[j] == '?') {
				q = q || t[j] == '?'
				j++
			}
			for j < len(t) && (t[j] == '"' || t[j] == '\'' || t[j] == ')' || t[j] == '*' || t[j] == '_') {
				j++
			}
			if j == len(t) || t[j] == ' ' || t[j] == '\t' {
				p.endSentence(q, !q && c == '.')
			}
			i = j
			continue
		}
		i += size
	}
}

// lowerASCII copies up to len(buf) bytes of w into buf, lower-cased, and
// cuts at an apostrophe so "what's" reads "what" and "isn't" reads "isn".
func lowerASCII(buf *[16]byte, w string) int {
	n := 0
	for k := 0; k < len(w) && n < len(buf); k++ {
		c := w[k]
		if c == '\'' || c >= utf8.RuneSelf {
			break
		}
		if isUpper(c) {
			c |= 0x20
		}
		buf[n] = c
		n++
	}
	return n
}

func (p *proseStats) word(w []byte, whole bool) {
	p.words++
	if !p.open {
		p.open, p.curWords, p.curInterr, p.curReq, p.skipLead = true, 0, false, false, false
	}
	p.curWords++
	if whole && (p.curWords == 1 || p.curWords == 2 && p.skipLead) {
		switch {
		case isInterrogative(w):
			p.curInterr = true
		case isRequestVerb(w):
			p.curReq = true
		case p.curWords == 1 && isFiller(w):
			p.skipLead = true
		}
	}
	if p.bytes <= maxCueBytes && whole {
		switch string(w) {
		case "compare", "compared", "comparing", "comparison", "contrast", "versus", "vs",
			"difference", "differences", "pros", "tradeoff", "tradeoffs", "trade-off", "trade-offs",
			"also", "additionally", "furthermore", "moreover", "secondly", "thirdly", "finally", "lastly":
			p.cues++
		case "well":
			if p.prevCue == 'a' {
				p.cues++ // "as well as"
			}
		case "addition":
			if p.prevCue == 'i' {
				p.cues++ // "in addition"
			}
		}
		switch string(w) {
		case "as":
			p.prevCue = 'a'
		case "in":
			p.prevCue = 'i'
		default:
			p.prevCue = 0
		}
	}
}

func isInterrogative(w []byte) bool {
	switch string(w) {
	case "who", "whom", "whose", "what", "when", "where", "why", "how", "which",
		"can", "could", "does", "do", "did", "is", "are", "was", "were", "should", "would", "will",
		"has", "have", "isn", "aren", "doesn", "don", "didn", "wasn", "weren", "shouldn", "wouldn",
		"won", "couldn", "hasn", "haven", "whats", "hows", "whys":
		return true
	}
	return false
}

func isRequestVerb(w []byte) bool {
	switch string(w) {
	case "explain", "describe", "compare", "contrast", "list", "summarize", "summarise", "show", "tell",
		"give", "find", "help", "write", "outline", "analyze", "analyse", "evaluate", "define", "suggest",
		"recommend", "review", "walk", "clarify", "elaborate", "discuss", "identify", "propose",
		"provide", "generate", "rewrite", "translate", "fix", "debug", "please", "enumerate", "name":
		return true
	}
	return false
}

func isFiller(w []byte) bool {
	switch string(w) {
	case "so", "and", "but", "also", "ok", "okay", "then", "now", "hey", "hi", "well", "quick", "btw":
		return true
	}
	return false
}
