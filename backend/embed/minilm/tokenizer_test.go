package minilm

import (
	"reflect"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Hello World", "hello world"},
		{"Café NAÏVE résumé", "cafe naive resume"},
		{"tab\there\nnew\r\nline", "tab here new  line"},
		{"a\x00b\u200bc\x07d\ufffde", "abcde"}, // NUL, zero-width space (Cf), BEL, U+FFFD dropped
		{"no\u00a0break", "no break"},          // NBSP is whitespace
		{"我爱Go", " 我  爱 go"},                   // CJK ideographs spaced out
		{"ひらがな", "ひらかな"},                       // kana are not spaced; the dakuten (Mn) is stripped
		{"ΆΣΟ", "ασο"},
	} {
		if got := normalize(c.in); got != c.want {
			t.Errorf("normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPreTokenize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"hello world", []string{"hello", "world"}},
		{"  it's  ok.  ", []string{"it", "'", "s", "ok", "."}},
		{"a+b=c<d>e|f^g`h$i~j", strings.Split("a + b = c < d > e | f ^ g ` h $ i ~ j", " ")}, // ASCII symbols count as punctuation
		{"«quoted»—dash…", []string{"«", "quoted", "»", "—", "dash", "…"}},                   // Unicode P
		{"x€y", []string{"x€y"}},                                                             // € is Sc, not punctuation
		{"", nil},
		{" \t ", nil},
	} {
		if got := preTokenize(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("preTokenize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// tinyTokenizer has a made-up vocabulary: [PAD] 0, [UNK] 1, [CLS] 2,
// [SEP] 3, then the pieces below from 4 on.
func tinyTokenizer(t *testing.T) *Tokenizer {
	t.Helper()
	vocab := map[string]int32{"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
	for i, p := range []string{"un", "##aff", "##able", "aff", "able", "u", "##n", ".", "hello", "##s", "é", "e"} {
		vocab[p] = int32(4 + i)
	}
	tok, err := NewTokenizer(vocab, "[UNK]", "##", 10)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestWordPiece(t *testing.T) {
	tok := tinyTokenizer(t)
	for _, c := range []struct {
		in   string
		want []int32
	}{
		{"unaffable", []int32{2, 4, 5, 6, 3}},   // un ##aff ##able: longest match first
		{"un", []int32{2, 4, 3}},                // whole word beats u ##n
		{"Hellos.", []int32{2, 12, 13, 11, 3}},  // hello ##s .
		{"unknown hello", []int32{2, 1, 12, 3}}, // an uncoverable word is one [UNK]
		{"helloaaaaaa", []int32{2, 1, 3}},       // 11 chars > 10: [UNK]
		{"É", []int32{2, 15, 3}},                // accent stripped: e
		{"", []int32{2, 3}},
	} {
		if got := tok.Encode(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Encode(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestTruncation(t *testing.T) {
	tok := tinyTokenizer(t)
	ids := tok.Encode(strings.Repeat("hello ", 1000))
	if len(ids) != MaxTokens {
		t.Fatalf("len = %d, want %d", len(ids), MaxTokens)
	}
	if ids[0] != 2 || ids[len(ids)-1] != 3 || ids[len(ids)-2] != 12 {
		t.Errorf("truncated ids do not start with [CLS] and end with hello [SEP]: %v", ids[len(ids)-3:])
	}
	// A word whose pieces straddle the limit is cut mid-word, as the
	// Hugging Face tokenizer truncates pieces, not words.
	ids = tok.Encode(strings.Repeat("hello ", 253) + "unaffable")
	if len(ids) != MaxTokens || ids[MaxTokens-2] != 4 {
		t.Errorf("len %d, last piece %d; want %d and un (4)", len(ids), ids[len(ids)-2], MaxTokens)
	}
}

func TestParseTokenizerErrors(t *testing.T) {
	for _, js := range []string{
		`{`,
		`{"normalizer":{"type":"BertNormalizer","lowercase":true},"pre_tokenizer":{"type":"BertPreTokenizer"},"model":{"type":"BPE"}}`,
		`{"normalizer":{"type":"BertNormalizer","lowercase":false},"pre_tokenizer":{"type":"BertPreTokenizer"},"model":{"type":"WordPiece"}}`,
		`{"normalizer":{"type":"BertNormalizer","lowercase":true},"pre_tokenizer":{"type":"BertPreTokenizer"},"model":{"type":"WordPiece","vocab":{"[UNK]":0}}}`,
	} {
		if _, err := ParseTokenizer([]byte(js)); err == nil {
			t.Errorf("ParseTokenizer(%s) succeeded", js)
		}
	}
}
