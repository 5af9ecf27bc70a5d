package ingest

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

var (
	bomUTF8    = []byte{0xef, 0xbb, 0xbf}
	bomUTF16BE = []byte{0xfe, 0xff}
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF32LE = []byte{0xff, 0xfe, 0, 0}
	bomUTF32BE = []byte{0, 0, 0xfe, 0xff}
)

// decodeText turns a file's bytes into the text Loom reads: UTF-8 with "\n"
// line ends. A byte-order mark is dropped (a UTF-16 file, which always
// starts with one, is decoded), and "\r\n" and a lone "\r" become "\n", one
// line end each, so line numbers stay those an editor shows. data itself is
// returned when nothing changes.
func decodeText(path string, data []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(data, bomUTF32LE), bytes.HasPrefix(data, bomUTF32BE):
		return nil, &FileError{path, "is UTF-32 text, which Loom does not read: save it as UTF-8 and ingest it again"}
	case bytes.HasPrefix(data, bomUTF16LE), bytes.HasPrefix(data, bomUTF16BE):
		if len(data)%2 != 0 {
			return nil, &FileError{path, "is UTF-16 text with an odd number of bytes (cut short?): save it again as UTF-8"}
		}
		return normaliseLineEnds(decodeUTF16(data[2:], bytes.HasPrefix(data, bomUTF16BE))), nil
	}
	return normaliseLineEnds(bytes.TrimPrefix(data, bomUTF8)), nil
}

// decodeUTF16 decodes UTF-16 into UTF-8; a lone surrogate becomes U+FFFD,
// as editors show it.
func decodeUTF16(b []byte, bigEndian bool) []byte {
	units := make([]uint16, len(b)/2)
	for i := range units {
		if bigEndian {
			units[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			units[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	out := make([]byte, 0, len(b)/2+len(b)/4)
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out
}

// normaliseLineEnds makes every "\r\n" and lone "\r" a "\n".
func normaliseLineEnds(b []byte) []byte {
	i := bytes.IndexByte(b, '\r')
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i >= 0 {
		out = append(out, b[:i]...)
		out = append(out, '\n')
		b = b[i+1:]
		if len(b) > 0 && b[0] == '\n' {
			b = b[1:]
		}
		i = bytes.IndexByte(b, '\r')
	}
	return append(out, b...)
}

// notTextProblem says what a file that is not text seems to be, from its
// first bytes, for a message a person can act on.
func notTextProblem(head []byte) string {
	kinds := []struct {
		magic []byte
		what  string
	}{
		{[]byte("%PDF-"), "a PDF document, which Loom does not read yet"},
		{[]byte("PK\x03\x04"), "a ZIP archive or a Word, Excel or OpenDocument file, which Loom does not read: save it as text"},
		{[]byte("\x89PNG"), "a PNG image"},
		{[]byte("\xff\xd8\xff"), "a JPEG image"},
		{[]byte("GIF8"), "a GIF image"},
		{[]byte("\x1f\x8b"), "gzip-compressed: decompress it first"},
		{[]byte("\xd0\xcf\x11\xe0"), "an old Microsoft Office file (.doc, .xls), which Loom does not read: save it as text"},
	}
	for _, k := range kinds {
		if bytes.HasPrefix(head, k.magic) {
			return "is a binary file, not text: it looks like " + k.what
		}
	}
	if looksLikeUTF16(head) {
		return "looks like UTF-16 text without a byte-order mark, which cannot be told apart from binary data: save it as UTF-8 (or as UTF-16 with a byte-order mark)"
	}
	return "is a binary file, not text (it holds NUL or other control bytes): Loom reads Markdown and plain text in UTF-8 or UTF-16"
}

// looksLikeUTF16 reports whether head is mostly ASCII written as UTF-16:
// NUL bytes at every other position.
func looksLikeUTF16(head []byte) bool {
	if len(head) < 16 {
		return false
	}
	var even, odd int
	for i, c := range head {
		if c == 0 {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	half := len(head) / 2
	return even > half*3/4 && odd < half/8 || odd > half*3/4 && even < half/8
}

// notUTF8Problem describes the first byte of data that is not UTF-8.
func notUTF8Problem(data []byte) string {
	line, col, b := firstInvalidUTF8(data)
	return fmt.Sprintf("is not valid UTF-8 (first bad byte at line %d, column %d) — byte 0x%02X, so the file is probably Latin-1 or Windows-1252: "+
		"save it as UTF-8 and ingest it again", line, col, b)
}

func firstInvalidUTF8(b []byte) (line, col int, bad byte) {
	line, col = 1, 1
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return line, col, b[i]
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i += size
	}
	return line, col, 0
}
