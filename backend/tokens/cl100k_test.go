package tokens

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/stretchr/testify/require"
)

// reference is tiktoken-go's own cl100k_base (regexp2 pre-split), which
// the hand-written split must agree with piece for piece.
func reference(t testing.TB) *tiktoken.Tiktoken {
	t.Helper()
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding(DefaultEncoding)
	require.NoError(t, err)
	return enc
}

func TestCL100KMatchesTiktoken(t *testing.T) {
	ref := reference(t)
	c := Default()
	require.NotNil(t, c.fast, "cl100k_base counts with the hand-written split")
	check := func(t *testing.T, s string) {
		t.Helper()
		if want, got := len(ref.EncodeOrdinary(s)), c.Count(s); want != got {
			t.Fatalf("Count(%q) = %d, tiktoken says %d", s, got, want)
		}
	}

	t.Run("edge cases", func(t *testing.T) {
		for _, s := range []string{
			"", " ", "  ", "a", "'s", "'S", "'ll", "'LL", "'Re", "'x", "'", "''s", "don't", "DON'T", "we'll've",
			"'ſ", "\u212a", "hello world", "hello  world", "hello   world", " hello", "\thello", "\nhello",
			"a\n\nb", "a \n b", "a  \n  b", "a\r\n\r\nb", "x \n", "x  ", "x\t\t", "\n", "\r\n", " \n ",
			"123", "1234567", "12345 678", "a1b2", "٣٤٥٦", "Ⅻ", "½¼", "$100", " $100", "...", " ...\n\n",
			"!!!\r\n\r\nx", "(a)", "[Node: A | relevance: 0.92 | source: input]", "<|endoftext|>",
			"naïve café", "日本語のテキスト", "한국어 텍스트", "Привет, мир!", "emoji 😀😀 ok", " 😀", "\u00a0x",
			"a\u00a0\u00a0b", "\u2028x", "a\u3000b", "\u0085x", "x\u200bz", "tab\tsep\tvalues", "\v\f",
			"x\u0301y", " \u0301", "mixed 'S AND 'd", "line\n  indented\n\tcode()",
		} {
			check(t, s)
		}
	})

	t.Run("every rune class", func(t *testing.T) {
		// One sample of each class the pattern tells apart, in every order.
		runes := []rune{'a', 'Z', 'é', 'ж', '中', '0', '٣', 'Ⅻ', '½', ' ', '\t', '\n', '\r', '\u00a0', '\u2028',
			'\u3000', '\u0085', '\'', '.', '$', '😀', '\u0301', '\u200b', 's', 'S', 'l', 'd', 'v', 'e', 'r', 'm', 't'}
		for _, a := range runes {
			for _, b := range runes {
				for _, c := range runes {
					check(t, string([]rune{a, b, c}))
					check(t, "x"+string([]rune{a, b, c})+" y")
				}
			}
		}
	})

	t.Run("random strings", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		alphabet := []rune("aAbzé中0123456789 \t\n\r'.,;:!?-_()[]{}<>|$%&*#@\u00a0\u2003😀ſsSlLdDtTmMrReEvV")
		for range 3000 {
			n := rng.IntN(40)
			rs := make([]rune, n)
			for i := range rs {
				rs[i] = alphabet[rng.IntN(len(alphabet))]
			}
			check(t, string(rs))
		}
		// Any code point (valid ones; surrogates are not runes of a string).
		for range 2000 {
			rs := make([]rune, 1+rng.IntN(12))
			for i := range rs {
				r := rune(rng.IntN(0x30000))
				if !unicode.Is(unicode.Cs, r) {
					rs[i] = r
				} else {
					rs[i] = ' '
				}
			}
			check(t, string(rs))
		}
	})

	t.Run("invalid UTF-8 is read as runes", func(t *testing.T) {
		for _, s := range []string{"\xff", "a\xffb", "\xc3", "ok \xe2\x82 done", "\xff\xfe\xfd"} {
			check(t, s)
		}
	})

	t.Run("reference documents", func(t *testing.T) {
		files, _ := filepath.Glob("../../../shared/reference/*.md")
		more, _ := filepath.Glob("../../README.md")
		files = append(files, more...)
		if len(files) == 0 {
			t.Skip("no reference documents next to the repository")
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			check(t, string(b))
			for _, line := range strings.Split(string(b), "\n") {
				check(t, line)
			}
		}
	})
}

func FuzzCL100K(f *testing.F) {
	ref := reference(f)
	c := Default()
	for _, s := range []string{"hello world", "a  \n  b", "'s 'LL 123456", "日本語 😀", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if want, got := len(ref.EncodeOrdinary(s)), c.Count(s); want != got {
			t.Fatalf("Count(%q) = %d, tiktoken says %d", s, got, want)
		}
	})
}

func BenchmarkCountTiktoken(b *testing.B) {
	ref := reference(b)
	text := strings.Repeat("The quick brown fox jumps over the lazy dog; tokens per second matter. ", 100)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		ref.EncodeOrdinary(text)
	}
}
