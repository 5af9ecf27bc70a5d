package classify

import (
	"math/bits"
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

// Byte classes for the ASCII fast path.
const (
	cWord  uint8 = 1 << iota // letter, digit, '_'
	cAlpha                   // letter
	cVowel                   // a e i o u y, either case
	cSpace                   // space, \t, \n, \r, \v, \f
	cCtrl                    // other control bytes and DEL
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		b := byte(c)
		switch {
		case isAlpha(b):
			t[c] = cWord | cAlpha
			if isVowel(b) {
				t[c] |= cVowel
			}
		case isDigit(b) || b == '_':
			t[c] = cWord
		case b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f':
			t[c] = cSpace
		case b < 0x20 || b == 0x7f:
			t[c] = cCtrl
		}
	}
	return t
}()

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiClass[r]&cWord != 0
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r))
}

func isVowel(c byte) bool {
	switch c | 0x20 {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashSet is an open-addressing set of non-zero 64-bit hashes; the first
// slots live in the caller's array so short texts never touch the heap.
type hashSet struct {
	slots []uint64
	n     int
	shift uint // 64 - log2(len(slots))
}

func (h *hashSet) add(x uint64) {
	if x == 0 {
		x = 1 // 0 marks an empty slot
	}
	if 2*(h.n+1) > len(h.slots) {
		h.grow()
	}
	mask := uint64(len(h.slots) - 1)
	i := (x * 0x9E3779B97F4A7C15) >> h.shift // Fibonacci hashing
	for h.slots[i] != 0 {
		if h.slots[i] == x {
			return
		}
		i = (i + 1) & mask
	}
	h.slots[i] = x
	h.n++
}

func (h *hashSet) grow() {
	old := h.slots
	h.slots = make([]uint64, 2*len(old))
	h.shift--
	h.n = 0
	for _, x := range old {
		if x != 0 {
			h.add(x)
		}
	}
}

// measureWords counts words, distinct words (case-insensitive, by 64-bit
// FNV-1a hash), letters and syllables, plus whitespace and non-text bytes,
// in one pass.
func measureWords(s string) wordStats {
	var ws wordStats
	var small [128]uint64
	set := hashSet{slots: small[:], shift: 64 - 7}
	if n := len(s) / 16; n > len(small) {
		// Room for a distinct word every 32 bytes at half load; it grows if
		// the text is more varied than that.
		size := len(small)
		for size < n && size < 1<<20 {
			size *= 2
		}
		set.slots = make([]uint64, size)
		set.shift = uint(64 - bits.TrailingZeros(uint(size)))
	}

	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			cl := asciiClass[c]
			if cl&cWord == 0 {
				switch {
				case cl&cSpace != 0:
					ws.whitespace++
				case cl&cCtrl != 0:
					ws.nonText++
				}
				i++
				continue
			}
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !isWordRune(r) {
				switch {
				case r == utf8.RuneError:
					ws.nonText += size
				case unicode.IsControl(r):
					ws.nonText += size
				case unicode.IsSpace(r):
					ws.whitespace += size
				}
				i += size
				continue
			}
		}
		// A word starts at s[i]: consume it.
		hash := uint64(fnvOffset)
		runes, groups := 0, 0
		prevVowel := false
		var last, prev byte // last two ASCII letters, lower-cased
		for i < len(s) {
			c := s[i]
			if c < utf8.RuneSelf {
				cl := asciiClass[c]
				if cl&cWord == 0 {
					if c == '\'' && i+1 < len(s) && s[i+1] < utf8.RuneSelf && asciiClass[s[i+1]]&cAlpha != 0 {
						hash = (hash ^ '\'') * fnvPrime // "don't" is one word
						i++
						continue
					}
					break
				}
				lc := c
				if cl&cAlpha != 0 {
					lc |= 0x20
					v := cl&cVowel != 0
					if v && !prevVowel {
						groups++
					}
					prevVowel = v
					prev, last = last, lc
				} else {
					prevVowel = false
				}
				hash = (hash ^ uint64(lc)) * fnvPrime
				runes++
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == '’' && i+size < len(s) && s[i+size] < utf8.RuneSelf && asciiClass[s[i+size]]&cAlpha != 0 {
				hash = (hash ^ '\'') * fnvPrime
				i += size
				continue
			}
			if !isWordRune(r) {
				break
			}
			lr := unicode.ToLower(r)
			hash = (hash ^ uint64(lr&0xff)) * fnvPrime
			hash = (hash ^ uint64(lr>>8)) * fnvPrime
			prevVowel, last, prev = false, 0, 0
			runes++
			i += size
		}
		if last == 'e' && prev != 'l' && groups > 1 {
			groups-- // silent e: "code", "make"; not "table"
		}
		ws.words++
		ws.letters += runes
		ws.syllables += max(groups, 1)
		set.add(hash)
	}
	ws.unique = set.n
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
	for i := 0; i < len(t); {
		c := t[i]
		if c < utf8.RuneSelf && asciiClass[c]&cWord == 0 {
			if c == '.' || c == '!' || c == '?' {
				i = p.terminal(t, i)
			} else {
				i++
			}
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(t[i:])
			if !isWordRune(r) {
				i += size
				continue
			}
		}
		j := wordEnd(t, i)
		p.word(t[i:j])
		i = j
	}
}

// wordEnd returns the end of the word starting at t[i]: letters, digits,
// '_', and inner apostrophes and hyphens ("don't", "trade-off").
func wordEnd(t string, i int) int {
	for i < len(t) {
		d := t[i]
		if d < utf8.RuneSelf {
			if asciiClass[d]&cWord != 0 {
				i++
				continue
			}
			if (d == '\'' || d == '-') && i+1 < len(t) && t[i+1] < utf8.RuneSelf && asciiClass[t[i+1]]&cAlpha != 0 {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(t[i:])
		if !isWordRune(r) && !(r == '’' && i+size < len(t) && isAlpha(t[i+size])) {
			return i
		}
		i += size
	}
	return i
}

// terminal handles '.', '!' or '?' at t[i]: a sentence ends there when the
// run of punctuation (and closing quotes or brackets) is followed by a space
// or the end of the line, so "3.14", "e.g.x" and "a?b" do not end one. It
// returns where scanning resumes.
func (p *proseStats) terminal(t string, i int) int {
	c := t[i]
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
	return j
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

func (p *proseStats) word(w string) {
	p.words++
	if !p.open {
		p.open, p.curWords, p.curInterr, p.curReq, p.skipLead = true, 0, false, false, false
	}
	p.curWords++
	lead := p.curWords == 1 || p.curWords == 2 && p.skipLead
	cues := p.bytes <= maxCueBytes
	if !lead && !cues || len(w) > 16 {
		return
	}
	var buf [16]byte
	lw := buf[:lowerASCII(&buf, w)]
	if lead {
		switch {
		case isInterrogative(lw):
			p.curInterr = true
		case isRequestVerb(lw):
			p.curReq = true
		case p.curWords == 1 && isFiller(lw):
			p.skipLead = true
		}
	}
	if !cues {
		return
	}
	switch string(lw) {
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
	switch string(lw) {
	case "as":
		p.prevCue = 'a'
	case "in":
		p.prevCue = 'i'
	default:
		p.prevCue = 0
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
		"provide", "generate", "rewrite", "translate", "fix", "debug", "please", "enumerate":
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
