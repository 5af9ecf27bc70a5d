package convert

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// prescanBytes is how far into a page its character set is looked for: the
// HTML standard's prescan reads 1024 bytes, but saved pages often carry a
// long <head> of styles and scripts before the <meta charset>.
const prescanBytes = 64 << 10

// decodeHTML returns a page's bytes as UTF-8. A byte-order mark decides;
// else a declared character set (<meta charset>, or the http-equiv
// Content-Type) is decoded from; else the page must be UTF-8. Invalid UTF-8
// in a page that is UTF-8 becomes U+FFFD.
func decodeHTML(data []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xef, 0xbb, 0xbf}):
		return validUTF8(data[3:]), nil
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}), bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		enc, _, _ := charset.DetermineEncoding(data, "")
		out, err := enc.NewDecoder().Bytes(data)
		if err != nil {
			return nil, badWrap(err, "is UTF-16 that cannot be decoded")
		}
		return bytes.TrimPrefix(out, []byte("\uFEFF")), nil
	}
	label := declaredCharset(data)
	if label == "" {
		if !utf8.Valid(data) {
			return nil, bad("is not UTF-8 and declares no character set: add <meta charset=\"…\"> naming its encoding, or save it as UTF-8")
		}
		return data, nil
	}
	enc, name := charset.Lookup(label)
	if enc == nil {
		return nil, bad("declares the character set %q, which Loom does not know: save it as UTF-8", label)
	}
	// The HTML standard reads a declared UTF-16 without a byte-order mark
	// as UTF-8: the declaration was read as ASCII, so it cannot be UTF-16.
	if name == "utf-8" || strings.HasPrefix(name, "utf-16") {
		return validUTF8(data), nil
	}
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return nil, badWrap(err, "declares the character set %q but cannot be decoded from it", label)
	}
	return out, nil
}

// validUTF8 returns data itself when it is valid UTF-8 (a page is
// usually; copying 50 MB for nothing is not free), else a copy with
// U+FFFD for each invalid sequence.
func validUTF8(data []byte) []byte {
	if utf8.Valid(data) {
		return data
	}
	return bytes.ToValidUTF8(data, []byte("\uFFFD"))
}

// declaredCharset finds the character set a page declares in its head:
// <meta charset="…"> or <meta http-equiv="Content-Type" content="…;
// charset=…">, looking no further than the start of the body.
func declaredCharset(data []byte) string {
	if len(data) > prescanBytes {
		data = data[:prescanBytes]
	}
	z := html.NewTokenizer(bytes.NewReader(data))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "body":
				return ""
			case "meta":
				if !hasAttr {
					continue
				}
				var httpEquiv, content string
				for {
					k, v, more := z.TagAttr()
					switch string(k) {
					case "charset":
						if s := strings.TrimSpace(string(v)); s != "" {
							return s
						}
					case "http-equiv":
						httpEquiv = string(v)
					case "content":
						content = string(v)
					}
					if !more {
						break
					}
				}
				if strings.EqualFold(strings.TrimSpace(httpEquiv), "content-type") {
					if s := charsetOfContentType(content); s != "" {
						return s
					}
				}
			}
		}
	}
}

// charsetOfContentType reads the charset parameter of a Content-Type value
// ("text/html; charset=ISO-8859-1").
func charsetOfContentType(content string) string {
	i := indexASCIIFold(content, "charset")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(content[i+len("charset"):], " \t")
	if !strings.HasPrefix(rest, "=") {
		return ""
	}
	rest = strings.Trim(strings.TrimLeft(rest[1:], " \t"), `"'`)
	if j := strings.IndexAny(rest, `;"' `); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// indexASCIIFold is strings.Index ignoring ASCII case; unlike lower-casing
// first, it keeps offsets in s (lower-casing invalid UTF-8 changes them).
func indexASCIIFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
