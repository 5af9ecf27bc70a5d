package ingest

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"
)

// reStructuredText (Sphinx documentation), AsciiDoc and Org files have
// headings of their own making. Loom reads them as Markdown once their
// section titles are written as Markdown headings (markedHeadings), line
// for line, so that they split at their headings, each section cited by
// the file's own lines; a file whose titles none are found in stays text
// (paragraphs). What is not a title is left as it is, but for the lines
// Markdown would misread: adornment and delimiter lines are blanked, and
// an Org comment line ("# …") too.

// markedHeadings is src with its section titles written as Markdown
// headings, by the rules of the format its path names (.rst, .adoc, .org),
// and how many it found; src itself and 0 for any other.
func markedHeadings(path string, src []byte) ([]byte, int) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".rst":
		return rstHeadings(src)
	case ".adoc":
		return adocHeadings(src)
	case ".org":
		return orgHeadings(src)
	}
	return src, 0
}

// lineSplits is src split after each line break (the last line may have
// none); lineBody and replaceLine work on its lines (here and in mdx.go).
func lineSplits(src []byte) [][]byte { return bytes.SplitAfter(src, []byte("\n")) }

// lineBody is a line without its line break.
func lineBody(line []byte) []byte { return bytes.TrimRight(line, "\r\n") }

// replaceLine is line with its text replaced, its line break kept.
func replaceLine(line []byte, text string) []byte {
	return append([]byte(text), line[len(lineBody(line)):]...)
}

// atx is a Markdown heading of level n (1–6) saying title.
func atx(n int, title string) string {
	return strings.Repeat("#", min(max(n, 1), 6)) + " " + strings.TrimSpace(title)
}

// rstAdornment is a line of one punctuation character repeated (at least
// three times): a title's underline or overline in reStructuredText.
func rstAdornment(b []byte) (byte, bool) {
	b = bytes.TrimRight(b, " \t")
	if len(b) < 3 || !strings.ContainsRune("=-`:'\"~^_*+#<>.", rune(b[0])) {
		return 0, false
	}
	for _, c := range b {
		if c != b[0] {
			return 0, false
		}
	}
	return b[0], true
}

// rstLabel is an internal hyperlink target, an anchor for references.
var rstLabel = regexp.MustCompile(`^\.\. _[^:]+:\s*$`)

// rstHeadings: a title is an unindented line of text after a blank line
// (or an overline) and before an underline at least as long; its level is
// the order in which its adornment style (the character, and whether it
// has an overline) first appears in the file, as Docutils does. Anchors
// (".. _name:") are blanked.
func rstHeadings(src []byte) ([]byte, int) {
	ls := lineSplits(src)
	type style struct {
		c    byte
		over bool
	}
	levels := map[style]int{}
	found := 0
	blank := func(i int) bool { return i < 0 || len(bytes.TrimSpace(ls[i])) == 0 }
	for i := 0; i+1 < len(ls); i++ {
		title := lineBody(ls[i])
		if len(bytes.TrimSpace(title)) == 0 || title[0] == ' ' || title[0] == '\t' {
			continue
		}
		if _, ok := rstAdornment(title); ok {
			continue
		}
		if rstLabel.Match(title) { // an anchor (".. _authentication:"), not content
			ls[i] = replaceLine(ls[i], "")
			continue
		}
		under, ok := rstAdornment(lineBody(ls[i+1]))
		width := utf8.RuneCount(bytes.TrimRight(title, " \t"))
		if !ok || len(bytes.TrimRight(lineBody(ls[i+1]), " \t")) < width {
			continue
		}
		over := false
		if i > 0 {
			if c, ok := rstAdornment(lineBody(ls[i-1])); ok && c == under {
				over = true
			}
		}
		if !over && !blank(i-1) {
			continue
		}
		s := style{under, over}
		if levels[s] == 0 {
			levels[s] = len(levels) + 1
		}
		ls[i] = replaceLine(ls[i], atx(levels[s], string(title)))
		ls[i+1] = replaceLine(ls[i+1], "")
		if over {
			ls[i-1] = replaceLine(ls[i-1], "")
		}
		found++
		i++
	}
	return bytes.Join(ls, nil), found
}

// adocTitle is an AsciiDoc section title: one to six "=" and a space.
var adocTitle = regexp.MustCompile(`^(={1,6})[ \t]+(\S.*)$`)

// adocMeta is a line that is not content: an attribute entry (":name:
// value"), a preprocessor directive (ifdef::…[], endif::[]) or a comment.
var adocMeta = regexp.MustCompile(`^(:[\w-]+!?:(\s.*)?|(ifdef|ifndef|ifeval|endif)::.*\[.*\]|//([^/].*)?)$`)

// adocDelimiter is the line that opens or closes a delimited block
// (listing ----, literal ...., passthrough ++++, comment ////; example
// ====, sidebar ****, quote ____), and whether the block holds code.
func adocDelimiter(b []byte) (code, ok bool) {
	b = bytes.TrimRight(b, " \t")
	if len(b) < 4 || !strings.ContainsRune("-.+/=*_", rune(b[0])) || bytes.Count(b, b[:1]) != len(b) {
		return false, false
	}
	return strings.ContainsRune("-.+/", rune(b[0])), true
}

// adocHeadings: "= Title" is level 1, "== Section" level 2, and so on,
// outside delimited blocks. A block of code (listing, literal) is fenced as
// Markdown's code is, so that nothing in it reads as a heading; the
// delimiters of other blocks, attribute entries, preprocessor directives
// and comments are blanked.
func adocHeadings(src []byte) ([]byte, int) {
	ls := lineSplits(src)
	found := 0
	var open []byte // the delimiter of the block we are in
	for i, l := range ls {
		b := lineBody(l)
		trimmed := bytes.TrimRight(b, " \t")
		switch {
		case open != nil:
			if bytes.Equal(trimmed, open) {
				if code, _ := adocDelimiter(open); code {
					ls[i] = replaceLine(l, "```")
				} else {
					ls[i] = replaceLine(l, "")
				}
				open = nil
			}
		case adocMeta.Match(b):
			ls[i] = replaceLine(l, "")
		default:
			if code, ok := adocDelimiter(b); ok {
				open = append([]byte(nil), trimmed...)
				if code {
					ls[i] = replaceLine(l, "```")
				} else {
					open = nil // prose inside: read on, the delimiter blanked
					ls[i] = replaceLine(l, "")
				}
				continue
			}
			if m := adocTitle.FindSubmatch(b); m != nil {
				ls[i] = replaceLine(l, atx(len(m[1]), string(m[2])))
				found++
			}
		}
	}
	return bytes.Join(ls, nil), found
}

// orgHeadline is an Org headline: stars and a space.
var orgHeadline = regexp.MustCompile(`^(\*+)[ \t]+(\S.*)$`)

// orgKeyword, orgPriority and orgTags are what a headline says besides its
// title: a TODO keyword, a priority cookie, its tags.
var (
	orgKeyword  = regexp.MustCompile(`^(TODO|DONE|NEXT|WAITING|HOLD|CANCELLED|CANCELED)\s+`)
	orgPriority = regexp.MustCompile(`^\[#[A-Z0-9]\]\s+`)
	orgTags     = regexp.MustCompile(`\s+:([\w@#%]+:)+\s*$`)
)

// orgPlain is a headline's title without its keyword, priority and tags
// (the title itself when that would leave nothing).
func orgPlain(h string) string {
	t := orgTags.ReplaceAllString(orgPriority.ReplaceAllString(orgKeyword.ReplaceAllString(h, ""), ""), "")
	if strings.TrimSpace(t) == "" {
		return h
	}
	return t
}

// orgTitle is the #+title: keyword.
var orgTitle = regexp.MustCompile(`(?i)^#\+title:[ \t]*(\S.*)$`)

// orgHeadings: a headline of n stars is a level-n heading (n+1 under a
// #+title:, which is the level-1 heading). Source, example and export
// blocks are fenced as Markdown's code is, comment blocks blanked; other
// #+BEGIN_…/#+END_… lines, comment lines ("# …") and rules ("-----") are
// blanked, the prose between them kept.
func orgHeadings(src []byte) ([]byte, int) {
	ls := lineSplits(src)
	found, shift := 0, 0
	in := "" // the block we are in ("src", "quote", …)
	for i, l := range ls {
		b := lineBody(l)
		lower := strings.ToLower(strings.TrimSpace(string(b)))
		switch {
		case in != "":
			switch {
			case strings.HasPrefix(lower, "#+end_"):
				ls[i] = replaceLine(l, map[bool]string{true: "```"}[in != "comment"])
				in = ""
			case in == "comment":
				ls[i] = replaceLine(l, "")
			}
		case strings.HasPrefix(lower, "#+begin_"):
			kind, _, _ := strings.Cut(strings.TrimPrefix(lower, "#+begin_"), " ")
			switch kind {
			case "src", "example", "export":
				in = kind
				ls[i] = replaceLine(l, "```")
			case "comment":
				in = kind
				ls[i] = replaceLine(l, "")
			default: // prose inside (a quote, a verse, a center): read on
				ls[i] = replaceLine(l, "")
			}
		case strings.HasPrefix(lower, "#+end_"):
			ls[i] = replaceLine(l, "")
		case found == 0 && shift == 0 && orgTitle.Match(b):
			ls[i] = replaceLine(l, atx(1, string(orgTitle.FindSubmatch(b)[1])))
			shift = 1
		case bytes.HasPrefix(b, []byte("# ")) || string(b) == "#":
			ls[i] = replaceLine(l, "")
		case len(lower) >= 5 && strings.Trim(lower, "-") == "":
			ls[i] = replaceLine(l, "")
		default:
			if m := orgHeadline.FindSubmatch(b); m != nil {
				ls[i] = replaceLine(l, atx(len(m[1])+shift, orgPlain(string(m[2]))))
				found++
			}
		}
	}
	return bytes.Join(ls, nil), found
}
