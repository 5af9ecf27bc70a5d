package ingest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCodeComments(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"go", "// Split cuts a note\n// at its headings.\nfunc Split(s string) { // not this\n\tx := 1 // nor this\n}\n", "Split cuts a note\nat its headings.\n"},
		{"rust", "/// Parses a line.\n//! Module words.\nfn parse() {}\n", "Parses a line.\nModule words.\n"},
		{"block", "/**\n * Reads a file.\n * @param p the path\n */\nint read(char *p) {\n\t*p = 0;\n}\n", "Reads a file.\n@param p the path\n"},
		{"one-line block", "/* Counts words. */\nint n;\n", "Counts words.\n"},
		{"python", "def f(x):\n    \"\"\"Return the square\n    of x.\"\"\"\n    # a comment\n    return x * x\n", "Return the square\nof x.\na comment\n"},
		{"python one line", "def g():\n    '''Say hello.'''\n    return 1\n", "Say hello.\n"},
		{"c preprocessor", "#include <stdio.h>\n#define N 3\n# a shell comment\n", "a shell comment\n"},
		{"no comments", "func f() {}\n", ""},
	} {
		assert.Equal(t, c.want, CodeComments(c.text), c.name)
	}
}
