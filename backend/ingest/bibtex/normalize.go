package bibtex

import (
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// NormalizeTitle makes a title comparable with the same title taken from
// elsewhere (a PDF's first page, a web page): compatibility-decomposed
// (ligatures such as "ﬁ" become "fi"), accents dropped, lower-cased, with
// letters and digits only and single spaces between words.
func NormalizeTitle(s string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFKD.String(strings.ToValidUTF8(s, " ")) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
		case unicode.Is(unicode.Mn, r):
			// a combining accent: the letter it belongs to is kept
		default:
			space = true
		}
	}
	return b.String()
}

// NormalizeDOI finds a DOI in s ("10.1145/3290605.3300857", "doi:10…",
// "https://doi.org/10…", "DOI 10…") and returns it lower-cased, without a
// resolver prefix, percent-escapes decoded and trailing punctuation cut; ""
// when s holds none.
func NormalizeDOI(s string) string {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "%") {
		if u, err := url.PathUnescape(s); err == nil {
			s = u
		}
	}
	for from := 0; ; {
		i := strings.Index(s[from:], "10.")
		if i < 0 {
			return ""
		}
		i += from
		from = i + 3
		if i > 0 && isDigitByte(s[i-1]) {
			continue
		}
		j := i + 3
		for j < len(s) && isDigitByte(s[j]) {
			j++
		}
		if j-(i+3) < 4 || j >= len(s) || s[j] != '/' {
			continue
		}
		end := j + 1
		for end < len(s) && !unicode.IsSpace(rune(s[end])) && s[end] != '"' && s[end] != '<' && s[end] != '>' {
			end++
		}
		doi := trimDOIEnd(s[i:end])
		if len(doi) <= j+1-i {
			continue
		}
		return strings.ToLower(doi)
	}
}

// trimDOIEnd cuts punctuation that ends a sentence or a bracket around a
// DOI rather than the DOI itself.
func trimDOIEnd(doi string) string {
	for doi != "" {
		last := doi[len(doi)-1]
		switch {
		case strings.IndexByte(".,;:'", last) >= 0:
		case last == ')' && strings.Count(doi, "(") < strings.Count(doi, ")"):
		case last == ']' && strings.Count(doi, "[") < strings.Count(doi, "]"):
		case last == '}' && strings.Count(doi, "{") < strings.Count(doi, "}"):
		default:
			return doi
		}
		doi = doi[:len(doi)-1]
	}
	return doi
}

// NormalizeArXiv finds an arXiv identifier in s and returns it without its
// version: "2205.14135" from "2205.14135v2", "arXiv:2205.14135",
// "https://arxiv.org/abs/2205.14135v3", "https://arxiv.org/pdf/2205.14135.pdf"
// or "arXiv preprint arXiv:2205.14135"; old-style identifiers such as
// "hep-th/9901001" too. It returns "" when s holds none.
func NormalizeArXiv(s string) string {
	s = strings.TrimSpace(s)
	if id := arxivID(s); id != "" {
		return id
	}
	for _, anchor := range []string{"arxiv.org/abs/", "arxiv.org/pdf/", "arxiv:"} {
		if i := lastIndexASCIIFold(s, anchor); i >= 0 {
			if id := arxivID(s[i+len(anchor):]); id != "" {
				return id
			}
		}
	}
	return ""
}

// arxivID reads an identifier at the start of s, which must be followed by
// nothing but a version, ".pdf", or a separator.
func arxivID(s string) string {
	s = strings.TrimSpace(s)
	n := newStyleLen(s)
	if n == 0 {
		n = oldStyleLen(s)
	}
	if n == 0 {
		return ""
	}
	id, rest := s[:n], s[n:]
	if len(rest) > 1 && (rest[0] == 'v' || rest[0] == 'V') && isDigitByte(rest[1]) {
		rest = strings.TrimLeft(rest[1:], "0123456789")
	}
	rest = strings.TrimPrefix(rest, ".pdf")
	if rest != "" {
		c := rest[0]
		if isDigitByte(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' && len(rest) > 1 && isDigitByte(rest[1]) {
			return ""
		}
	}
	return id
}

// newStyleLen is the length of a YYMM.NNNN(N) identifier at the start of s
// (0 for none).
func newStyleLen(s string) int {
	if len(s) < 9 || !allDigits(s[:4]) || s[4] != '.' {
		return 0
	}
	n := 5
	for n < len(s) && isDigitByte(s[n]) {
		n++
	}
	if d := n - 5; d != 4 && d != 5 {
		return 0
	}
	return n
}

// oldStyleLen is the length of an archive/YYMMNNN identifier at the start
// of s ("hep-th/9901001", "math.GT/0309136"); 0 for none.
func oldStyleLen(s string) int {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] == '-') {
		i++
	}
	if i < 2 {
		return 0
	}
	if i+3 < len(s) && s[i] == '.' && s[i+1] >= 'A' && s[i+1] <= 'Z' && s[i+2] >= 'A' && s[i+2] <= 'Z' {
		i += 3
	}
	if i+8 > len(s) || s[i] != '/' || !allDigits(s[i+1:i+8]) {
		return 0
	}
	if i+8 < len(s) && isDigitByte(s[i+8]) {
		return 0
	}
	return i + 8
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return s != ""
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// lastIndexASCIIFold is strings.LastIndex ignoring ASCII case, with
// offsets in s (lower-casing invalid UTF-8 first would move them).
func lastIndexASCIIFold(s, sub string) int {
	for i := len(s) - len(sub); i >= 0; i-- {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
