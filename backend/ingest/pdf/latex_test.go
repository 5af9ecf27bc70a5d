package pdf

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The LaTeX sources are the truth the layout is measured against: these
// helpers read from a .tex file what its PDF must come out as.

// texSource is a test PDF's LaTeX source.
type texSource string

func readTex(t testing.TB, name string) texSource {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return texSource(b)
}

var (
	texSectioning = regexp.MustCompile(`\\(section|subsection|subsubsection|head|subhead)(\*?)(?:\[[^\]]*\])?\{([^}]*)\}|\\begin\{(abstract|thebibliography)\}`)
	texMacroDef   = regexp.MustCompile(`(?m)^\\newcommand.*$`)
)

// headings lists the document's headings as "level|text" the way the
// PDF prints them: numbered sections with their numbers, starred ones
// and the abstract and bibliography without. The report's \head and
// \subhead macros are unnumbered sections and subsections.
func (s texSource) headings() []string {
	body := texMacroDef.ReplaceAllString(string(s), "")
	var out []string
	var sec, sub, subsub int
	for _, m := range texSectioning.FindAllStringSubmatch(body, -1) {
		cmd, star, title, env := m[1], m[2] == "*", m[3], m[4]
		switch {
		case env == "abstract":
			out = append(out, "1|Abstract")
		case env == "thebibliography":
			out = append(out, "1|References")
		case cmd == "head" || cmd == "section" && star:
			out = append(out, "1|"+title)
		case cmd == "subhead":
			out = append(out, "2|"+title)
		case cmd == "section":
			sec, sub, subsub = sec+1, 0, 0
			out = append(out, fmt.Sprintf("1|%d %s", sec, title))
		case cmd == "subsection":
			sub, subsub = sub+1, 0
			out = append(out, fmt.Sprintf("2|%d.%d %s", sec, sub, title))
		case cmd == "subsubsection":
			subsub++
			out = append(out, fmt.Sprintf("3|%d.%d.%d %s", sec, sub, subsub, title))
		}
	}
	return out
}

var texTabular = regexp.MustCompile(`(?s)\\begin\{tabular\}\{[^}]*\}(.*?)\\end\{tabular\}`)

// tables gives each tabular's rows as "a | b | c" lines.
func (s texSource) tables() []string {
	var out []string
	for _, m := range texTabular.FindAllStringSubmatch(string(s), -1) {
		var rows []string
		for _, r := range strings.Split(m[1], `\\`) {
			if r = strings.TrimSpace(r); r == "" {
				continue
			}
			cells := strings.Split(r, "&")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			rows = append(rows, strings.Join(cells, " | "))
		}
		out = append(out, strings.Join(rows, "\n"))
	}
	return out
}

// paragraphs are the source's plain paragraphs (no macro, no maths), as
// the PDF must read: one line, TeX's dashes and quotes set. A command or
// comment on a line of its own (\section, \begin{itemize}) ends one.
func (s texSource) paragraphs() []string {
	var out []string
	var cur []string
	end := func() {
		p := strings.Join(cur, " ")
		cur = nil
		if p != "" && !strings.ContainsAny(p, `\$%{}~&`) {
			out = append(out, texText(p))
		}
	}
	for _, l := range strings.Split(string(s), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '\\' || l[0] == '%' {
			end()
			continue
		}
		cur = append(cur, l)
	}
	end()
	return out
}

// texText is how TeX sets plain source text: --- and -- as dashes, ' as
// a right quote, white space as single spaces.
func texText(s string) string {
	s = strings.NewReplacer("---", "—", "--", "–", "'", "’").Replace(s)
	return collapseSpace(s)
}

// words are the source's words, lower-cased, with their inner hyphens.
func (s texSource) words() map[string]bool {
	out := map[string]bool{}
	for _, w := range regexp.MustCompile(`[A-Za-z]+(?:-[A-Za-z]+)*`).FindAllString(string(s), -1) {
		out[strings.ToLower(w)] = true
	}
	return out
}

// command gives the argument of the first \name{...} in the source.
func (s texSource) command(name string) string {
	m := regexp.MustCompile(`\\` + name + `\{([^}]*)\}`).FindStringSubmatch(string(s))
	if m == nil {
		return ""
	}
	return m[1]
}
