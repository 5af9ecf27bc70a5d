package minilm

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxTokens is the most tokens one text is encoded with, [CLS] and [SEP]
// included: all-MiniLM-L6-v2 was trained with sentence-transformers'
// max_seq_length 256 (its tokenizer.json says 128, but sentence-transformers
// overrides that), so longer texts are cut to their first 254 word pieces,
// as sentence-transformers does.
const MaxTokens = 256

// Tokenizer is BERT's uncased WordPiece tokenizer as tokenizer.json
// describes it: the BertNormalizer (clean text, space out CJK characters,
// strip accents, lowercase), the BertPreTokenizer (split on whitespace and
// around every punctuation character), then greedy longest-match-first
// WordPiece, with [CLS] before and [SEP] after.
type Tokenizer struct {
	vocab        map[string]int32
	unkTok       string
	unk          int32
	cls, sep     int32
	prefix       string
	maxWordChars int
}

// tokenizerJSON is the part of a Hugging Face tokenizer.json read here.
type tokenizerJSON struct {
	Normalizer struct {
		Type      string `json:"type"`
		Lowercase bool   `json:"lowercase"`
	} `json:"normalizer"`
	PreTokenizer struct {
		Type string `json:"type"`
	} `json:"pre_tokenizer"`
	Model struct {
		Type                    string           `json:"type"`
		UnkToken                string           `json:"unk_token"`
		ContinuingSubwordPrefix string           `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int              `json:"max_input_chars_per_word"`
		Vocab                   map[string]int32 `json:"vocab"`
	} `json:"model"`
}

// ParseTokenizer builds a Tokenizer from the bytes of a tokenizer.json
// whose model is WordPiece with an uncased BertNormalizer.
func ParseTokenizer(b []byte) (*Tokenizer, error) {
	var tj tokenizerJSON
	if err := json.Unmarshal(b, &tj); err != nil {
		return nil, err
	}
	m := tj.Model
	if m.Type != "WordPiece" {
		return nil, fmt.Errorf("model type is %q, want WordPiece", m.Type)
	}
	if tj.Normalizer.Type != "BertNormalizer" || !tj.Normalizer.Lowercase {
		return nil, fmt.Errorf("normalizer is %q (lowercase %v), want an uncased BertNormalizer", tj.Normalizer.Type, tj.Normalizer.Lowercase)
	}
	if tj.PreTokenizer.Type != "BertPreTokenizer" {
		return nil, fmt.Errorf("pre_tokenizer is %q, want BertPreTokenizer", tj.PreTokenizer.Type)
	}
	return NewTokenizer(m.Vocab, m.UnkToken, m.ContinuingSubwordPrefix, m.MaxInputCharsPerWord)
}

// NewTokenizer builds a Tokenizer from a WordPiece vocabulary, which must
// hold unk, [CLS] and [SEP]. An empty prefix means "##" and a maxWordChars
// of 0 means 100, BERT's defaults.
func NewTokenizer(vocab map[string]int32, unk, prefix string, maxWordChars int) (*Tokenizer, error) {
	if unk == "" {
		unk = "[UNK]"
	}
	if prefix == "" {
		prefix = "##"
	}
	if maxWordChars <= 0 {
		maxWordChars = 100
	}
	t := &Tokenizer{vocab: vocab, unkTok: unk, prefix: prefix, maxWordChars: maxWordChars}
	for _, s := range []struct {
		tok string
		id  *int32
	}{{unk, &t.unk}, {"[CLS]", &t.cls}, {"[SEP]", &t.sep}} {
		id, ok := vocab[s.tok]
		if !ok {
			return nil, fmt.Errorf("vocabulary has no %s token", s.tok)
		}
		*s.id = id
	}
	return t, nil
}

// VocabSize is the number of entries in the vocabulary.
func (t *Tokenizer) VocabSize() int { return len(t.vocab) }

// Vocab returns the vocabulary's entries indexed by token id; ids that no
// entry has are empty strings.
func (t *Tokenizer) Vocab() []string {
	n := 0
	for _, id := range t.vocab {
		n = max(n, int(id)+1)
	}
	out := make([]string, n)
	for tok, id := range t.vocab {
		if id >= 0 {
			out[id] = tok
		}
	}
	return out
}

// Settings returns what NewTokenizer was given besides the vocabulary: the
// unknown token, the continuation prefix and the longest word in
// characters.
func (t *Tokenizer) Settings() (unk, prefix string, maxWordChars int) {
	return t.unkTok, t.prefix, t.maxWordChars
}

// Special returns the ids of [UNK], [CLS] and [SEP].
func (t *Tokenizer) Special() (unk, cls, sep int32) { return t.unk, t.cls, t.sep }

// Pieces appends text's word pieces to ids, as Encode finds them but
// without [CLS], [SEP] or the cut at MaxTokens: a static embedder
// (backend/embed/static) looks every piece of a long text up.
func (t *Tokenizer) Pieces(ids []int32, text string) []int32 {
	for _, w := range preTokenize(normalize(text)) {
		ids = t.wordPiece(w, ids)
	}
	return ids
}

// Encode returns text's token ids: [CLS], the word pieces (at most
// MaxTokens-2 of them), [SEP].
func (t *Tokenizer) Encode(text string) []int32 {
	ids := []int32{t.cls}
	for _, w := range preTokenize(normalize(text)) {
		ids = t.wordPiece(w, ids)
		if len(ids) >= MaxTokens-1 {
			ids = ids[:MaxTokens-1]
			break
		}
	}
	return append(ids, t.sep)
}

// wordPiece appends word's pieces to ids: the longest vocabulary entry
// that starts the word, then the longest "##"-prefixed entry that starts
// the rest, and so on; a word that cannot be covered so, or that is longer
// than maxWordChars characters, becomes the single [UNK].
func (t *Tokenizer) wordPiece(word string, ids []int32) []int32 {
	if utf8.RuneCountInString(word) > t.maxWordChars {
		return append(ids, t.unk)
	}
	n := len(ids)
	var buf []byte
	for start := 0; start < len(word); {
		end := len(word)
		found := false
		for end > start {
			sub := word[start:end]
			if start > 0 {
				buf = append(append(buf[:0], t.prefix...), sub...)
				sub = string(buf)
			}
			if id, ok := t.vocab[sub]; ok {
				ids = append(ids, id)
				found = true
				break
			}
			// Step back one character.
			_, size := utf8.DecodeLastRuneInString(word[start:end])
			end -= size
		}
		if !found {
			return append(ids[:n], t.unk)
		}
		start = end
	}
	return ids
}

// normalize is the uncased BertNormalizer: it drops NUL, U+FFFD and control
// characters, turns whitespace into spaces, puts spaces around CJK
// ideographs, strips accents (NFD, then drops nonspacing marks) and
// lowercases.
func normalize(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for _, r := range text {
		switch {
		case r == 0 || r == utf8.RuneError || isControl(r):
		case isWhitespace(r):
			b.WriteByte(' ')
		case isCJK(r):
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	s := norm.NFD.String(b.String())
	b.Reset()
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// preTokenize is the BertPreTokenizer: words are split on whitespace, and
// every punctuation character stands alone as a word.
func preTokenize(text string) []string {
	var words []string
	start := -1
	for i, r := range text {
		switch {
		case isWhitespace(r):
			if start >= 0 {
				words = append(words, text[start:i])
				start = -1
			}
		case isPunct(r):
			if start >= 0 {
				words = append(words, text[start:i])
				start = -1
			}
			words = append(words, text[i:i+utf8.RuneLen(r)])
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		words = append(words, text[start:])
	}
	return words
}

// isWhitespace is BERT's whitespace: tab, newline, carriage return and the
// Unicode White_Space characters.
func isWhitespace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || unicode.IsSpace(r)
}

// isControl is BERT's control character: any of Unicode's "other"
// categories (Cc, Cf, Co, Cs, unassigned) except tab, newline and carriage
// return, which count as whitespace.
func isControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) || !isAssigned(r)
}

// isAssigned reports whether r has a general category in Go's Unicode
// tables.
func isAssigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
}

// isPunct is BERT's punctuation: the ASCII ranges 33–47, 58–64, 91–96 and
// 123–126 (which include $, +, <, =, >, ^, ` and |, symbols in Unicode)
// and anything in Unicode's category P.
func isPunct(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.IsPunct(r)
}

// isCJK reports whether r is in the CJK Unified Ideographs blocks BERT
// spaces out (not Hiragana, Katakana or Hangul, which are written with
// spaces or handled by WordPiece).
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) ||
		(r >= 0x3400 && r <= 0x4DBF) ||
		(r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) ||
		(r >= 0x2B740 && r <= 0x2B81F) ||
		(r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) ||
		(r >= 0x2F800 && r <= 0x2FA1F)
}
