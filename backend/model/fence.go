package model

// Fenced code in Markdown opens with a line of three or more backticks or
// tildes and closes with a line of the same character, at least as many,
// and nothing else. The readers that rewrite Markdown line by line (the
// MDX and Org readers, the summaries, the prompt) must leave fenced code
// as it is; these say where it starts and ends. Lines are given trimmed.

// Fence is the fence a line opens fenced code with ("```", "~~~~", …), or
// "" for none.
func Fence[T ~string | ~[]byte](trimmed T) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(trimmed) && trimmed[n] == c {
			n++
		}
		if n >= 3 {
			return string(trimmed[:n])
		}
	}
	return ""
}

// ClosesFence reports whether a line closes the fenced code fence opened.
func ClosesFence[T ~string | ~[]byte](trimmed T, fence string) bool {
	if fence == "" || len(trimmed) < len(fence) {
		return false
	}
	for i := 0; i < len(trimmed); i++ {
		if trimmed[i] != fence[0] {
			return false
		}
	}
	return true
}
