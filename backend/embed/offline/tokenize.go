package offline

import (
	"unicode"
	"unicode/utf8"
)

// The tokeniser mirrors how GloVe 6B's vocabulary was made (Stanford
// tokeniser, lower-cased) closely enough for lookups to hit:
//
//   - A word is a run of letters, digits and combining marks, lower-cased.
//     Everything else separates words, so "U.S." gives "u", "s" and
//     "(1990)" gives "1990" (both out of vocabulary: this table has no
//     single letters and no bare numbers).
//   - A hyphen between two word characters joins a compound: "well-known"
//     and "il-6" are looked up whole, and when the compound is not in the
//     vocabulary its parts are looked up one by one.
//   - An apostrophe (' or ’) between two word characters marks a contraction
//     or an elision. GloVe split "don't" into "do" + "n't" and "it's" into
//     "it" + "'s", but this vocabulary has no apostrophe tokens, so the clitic
//     is spelt out: "n't" → "not" (with "can't" → "can not", "won't" →
//     "will not", "shan't" → "shall not", "ain't" → "is not"), "'re" → "are",
//     "'ve" → "have", "'ll" → "will", "'d" → "would", "'m" → "am", and the
//     possessive or "is" "'s" is dropped. Any other apostrophe splits
//     ("o'brien" → "o", "brien").

// contractionStems maps what is left of an irregular "n't" contraction once
// "n't" is cut off ("ca" from "can't") to the word it stands for.
var contractionStems = map[string][]byte{"ca": []byte("can"), "wo": []byte("will"), "sha": []byte("shall"), "ai": []byte("is")}

// clitics maps the part after an apostrophe to the word it stands for; an
// empty word means the clitic is dropped.
var clitics = map[string][]byte{"s": nil, "re": []byte("are"), "ve": []byte("have"), "ll": []byte("will"), "d": []byte("would"), "m": []byte("am")}

var wordNot = []byte("not")

// tokenizer splits text into lower-case words. It reuses its buffers, so a
// tokenizer belongs to one goroutine at a time.
type tokenizer struct {
	buf   []byte // the current chunk, lower-cased
	marks []int  // offsets in buf of apostrophes (a joiner byte '\'')
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' || r == 'ʼ' }

func isHyphen(r rune) bool { return r == '-' || r == '‐' || r == '‑' }

// Byte classes for the ASCII fast path.
const (
	byteSeparator = iota
	byteKeep      // a-z, 0-9
	byteUpper     // A-Z
	byteHyphen    // -
	byteApostrophe
	byteMultibyte // part of a UTF-8 sequence: decode and ask package unicode
)

var byteClass = func() (c [256]uint8) {
	for b := range c {
		switch {
		case b >= 0x80:
			c[b] = byteMultibyte
		case 'a' <= b && b <= 'z' || '0' <= b && b <= '9':
			c[b] = byteKeep
		case 'A' <= b && b <= 'Z':
			c[b] = byteUpper
		case b == '-':
			c[b] = byteHyphen
		case b == '\'':
			c[b] = byteApostrophe
		}
	}
	return c
}()

// wordAt reports whether text[i:] starts with a word rune.
func wordAt(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	switch byteClass[text[i]] {
	case byteKeep, byteUpper:
		return true
	case byteMultibyte:
		r, _ := utf8.DecodeRuneInString(text[i:])
		return isWordRune(r)
	}
	return false
}

// each calls emit for every word of text, in order. The slice passed to emit
// is only valid during the call.
func (t *tokenizer) each(text string, emit func(word []byte)) {
	i := 0
	for i < len(text) {
		if !wordAt(text, i) {
			i++
			continue
		}
		// A chunk: word runes, with hyphens and apostrophes that sit between
		// two word runes.
		t.buf, t.marks = t.buf[:0], t.marks[:0]
	chunk:
		for i < len(text) {
			c := text[i]
			switch byteClass[c] {
			case byteKeep:
				t.buf = append(t.buf, c)
				i++
			case byteUpper:
				t.buf = append(t.buf, c+('a'-'A'))
				i++
			case byteHyphen:
				if !wordAt(text, i+1) {
					break chunk
				}
				t.buf = append(t.buf, '-')
				i++
			case byteApostrophe:
				if !wordAt(text, i+1) {
					break chunk
				}
				t.marks = append(t.marks, len(t.buf))
				t.buf = append(t.buf, '\'')
				i++
			case byteMultibyte:
				r, n := utf8.DecodeRuneInString(text[i:])
				switch {
				case isWordRune(r):
					t.buf = utf8.AppendRune(t.buf, unicode.ToLower(r))
				case isHyphen(r) && wordAt(text, i+n):
					t.buf = append(t.buf, '-')
				case isApostrophe(r) && wordAt(text, i+n):
					t.marks = append(t.marks, len(t.buf))
					t.buf = append(t.buf, '\'')
				default:
					break chunk
				}
				i += n
			default:
				break chunk
			}
		}
		t.emitChunk(emit)
	}
}

// emitChunk applies the apostrophe rules to t.buf and emits the pieces.
func (t *tokenizer) emitChunk(emit func([]byte)) {
	if len(t.marks) == 0 {
		emitPiece(t.buf, emit)
		return
	}
	last := t.marks[len(t.marks)-1]
	head, tail := t.buf[:last], t.buf[last+1:]
	// Pieces before the last apostrophe stand alone.
	start := 0
	for _, m := range t.marks[:len(t.marks)-1] {
		emitPiece(t.buf[start:m], emit)
		start = m + 1
	}
	head = head[start:]
	switch {
	case string(tail) == "t" && len(head) > 0 && head[len(head)-1] == 'n':
		stem := head[:len(head)-1]
		if w, ok := contractionStems[string(stem)]; ok {
			emit(w)
		} else {
			emitPiece(stem, emit)
		}
		emit(wordNot)
	default:
		if w, ok := clitics[string(tail)]; ok {
			emitPiece(head, emit)
			if len(w) > 0 {
				emit(w)
			}
			return
		}
		emitPiece(head, emit)
		emitPiece(tail, emit)
	}
}

// emitPiece emits a non-empty piece. A hyphenated compound is emitted whole;
// the caller decides whether to fall back to its parts (see Embedder.lookup).
func emitPiece(w []byte, emit func([]byte)) {
	if len(w) > 0 {
		emit(w)
	}
}
