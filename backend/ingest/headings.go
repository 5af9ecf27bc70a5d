package ingest

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/loomwork/loom/backend/model"
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
// #+title:, which is the level-1 heading and counts as one found: a note
// of a title and prose, as Org-roam writes them, reads as Markdown too).
// Source, example and export blocks are fenced as Markdown's code is,
// comment blocks blanked; other #+BEGIN_…/#+END_… lines, comment lines
// ("# …"), rules ("-----"), keyword lines ("#+author: …"; a subtitle's
// and a description's say what they say), drawers
// (":PROPERTIES:" to ":END:", but for Org-roam's sources: orgRoamRefs)
// and planning lines ("SCHEDULED: <…>") are
// blanked, the prose between them kept, its links written as Markdown's
// (orgLinks). What the keywords and drawers say of the file is orgMeta's.
func orgHeadings(src []byte) ([]byte, int) {
	ls := lineSplits(src)
	found, shift := 0, 0
	in := "" // the block we are in ("src", "quote", …)
	drawer := false
	// A note's sources (:ROAM_REFS:) are in the drawer above its title:
	// they are written on the first empty line under the title, in the
	// title's section, or where they were when there is none.
	pending, pendingAt := "", -1
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
		case drawer:
			drawer = lower != ":end:"
			refs := orgRoamRefs(string(b))
			if refs != "" && found == 0 && shift == 0 {
				pending, pendingAt, refs = refs, i, ""
			}
			ls[i] = replaceLine(l, refs)
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
			ls[i] = replaceLine(l, atx(1, orgLinkText(string(orgTitle.FindSubmatch(b)[1]))))
			shift = 1
		case orgProseKeyword.Match(b):
			ls[i] = replaceLine(l, orgLinks(string(orgProseKeyword.FindSubmatch(b)[1])))
		case orgKeywordLine.Match(b), orgPlanning.Match(b):
			ls[i] = replaceLine(l, "")
		case orgDrawer.Match(b) && orgDrawerEnds(ls[i+1:]):
			drawer = true
			ls[i] = replaceLine(l, "")
		case bytes.HasPrefix(b, []byte("# ")) || string(b) == "#":
			ls[i] = replaceLine(l, "")
		case len(lower) >= 5 && strings.Trim(lower, "-") == "":
			ls[i] = replaceLine(l, "")
		default:
			if m := orgHeadline.FindSubmatch(b); m != nil {
				ls[i] = replaceLine(l, atx(len(m[1])+shift, orgLinkText(orgPlain(string(m[2])))))
				if found++; pending != "" {
					ls[pendingAt] = replaceLine(ls[pendingAt], pending)
					pending = ""
				}
			} else if bytes.Contains(b, []byte("[[")) {
				ls[i] = replaceLine(l, orgLinks(string(b)))
			}
		}
		if pending != "" && shift == 1 && i > pendingAt && len(bytes.TrimSpace(lineBody(ls[i]))) == 0 && in == "" && !drawer {
			ls[i] = replaceLine(ls[i], pending)
			pending = ""
		}
	}
	if pending != "" {
		ls[pendingAt] = replaceLine(ls[pendingAt], pending)
	}
	return bytes.Join(ls, nil), found + shift
}

// Org's keyword lines ("#+author: …", "#+filetags: …"; #+begin_ and
// #+end_ lines are blocks', #+title: the title's), drawers' first lines
// (":PROPERTIES:", ":LOGBOOK:") and planning lines.
var (
	orgKeywordLine = regexp.MustCompile(`^[ \t]*#\+[A-Za-z_-]+(\[[^\]]*\])?:`)
	orgDrawer      = regexp.MustCompile(`^[ \t]*:[A-Za-z_-]+:[ \t]*$`)
	orgPlanning    = regexp.MustCompile(`^[ \t]*(SCHEDULED|DEADLINE|CLOSED):`)
	// orgProseKeyword are the keywords whose value is prose.
	orgProseKeyword = regexp.MustCompile(`(?i)^[ \t]*#\+(?:subtitle|description):[ \t]*(.*)$`)
)

// orgRoamRef is Org-roam's property naming what a note is about: the
// citation keys ("cite:doe99", "@doe99", "[cite:@doe99]") or addresses
// of its sources.
var orgRoamRef = regexp.MustCompile(`(?i)^[ \t]*:ROAM_REFS:[ \t]*(.*)$`)

// orgRoamRefs is what a drawer line leaves in the text: for :ROAM_REFS:,
// "Source: " and its references, keys written as citations ("@doe99"),
// so that a literature note links to the entry of the paper it is about;
// nothing for any other line.
func orgRoamRefs(line string) string {
	m := orgRoamRef.FindStringSubmatch(line)
	if m == nil || strings.TrimSpace(m[1]) == "" {
		return ""
	}
	refs := strings.Fields(m[1])
	for i, r := range refs {
		if key, ok := strings.CutPrefix(r, "cite:"); ok && !strings.HasPrefix(key, "@") {
			refs[i] = "@" + key // org-ref's cite:key
		}
	}
	return "Source: " + strings.Join(refs, " ")
}

// orgDrawerEnds reports whether a drawer opening on the line before ls
// closes (":END:") before the next headline: a line like ":note:" that no
// :END: follows is prose, not a drawer to blank.
func orgDrawerEnds(ls [][]byte) bool {
	for _, l := range ls {
		b := bytes.TrimSpace(lineBody(l))
		if bytes.EqualFold(b, []byte(":END:")) {
			return true
		}
		if orgHeadline.Match(lineBody(l)) {
			return false
		}
	}
	return false
}

// orgLink is an Org link: [[target]] or [[target][description]].
var orgLink = regexp.MustCompile(`\[\[([^\[\]]+)\](?:\[([^\[\]]*)\])?\]`)

// orgLinks is a line of Org prose with its links written as Markdown's
// (orgLinkDest says where each goes); a search for text ([[A note]]) stays
// a wiki link, which lands on a note of that name if there is one (Logseq's
// Org pages link so); a link to nowhere Markdown can name keeps its
// description as text.
func orgLinks(line string) string {
	return orgLink.ReplaceAllStringFunc(line, func(m string) string {
		sub := orgLink.FindStringSubmatch(m)
		target, desc := strings.TrimSpace(sub[1]), strings.TrimSpace(sub[2])
		dest, shown, fuzzy := orgLinkDest(target)
		if fuzzy {
			// [[A note]]: a heading of this file to Org, a page to Logseq,
			// whose Org pages link so; as a wiki link, it lands on a note of
			// that name when there is one.
			if desc != "" && desc != target {
				return "[[" + target + "|" + desc + "]]"
			}
			return "[[" + target + "]]"
		}
		if desc == "" {
			desc = shown
		}
		if dest == "" {
			return desc
		}
		if strings.ContainsAny(dest, " ()<>") {
			dest = "<" + strings.ReplaceAll(strings.ReplaceAll(dest, "<", "%3C"), ">", "%3E") + ">"
		}
		return "[" + desc + "](" + dest + ")"
	})
}

// orgLinkText is text with each Org link given as its description (a
// heading's title), but a search for text, which stays a wiki link as in
// prose (a Markdown heading's wiki links are its section's links too).
func orgLinkText(text string) string {
	return orgLink.ReplaceAllStringFunc(text, func(m string) string {
		sub := orgLink.FindStringSubmatch(m)
		_, shown, fuzzy := orgLinkDest(strings.TrimSpace(sub[1]))
		if fuzzy {
			return orgLinks(m)
		}
		if desc := strings.TrimSpace(sub[2]); desc != "" {
			return desc
		}
		return shown
	})
}

// orgLinkDest is where an Org link's target goes, written as a Markdown
// destination ("" for nowhere Markdown can name), what to show when the
// link has no description, and whether the target is a search for text
// ([[A note]], fuzzy), which the caller keeps as a wiki link:
//
//	file:notes.org, ./notes.org      → notes.org
//	file:notes.org::*A heading       → notes.org#a-heading
//	file:images/plot.png             → "" (a file Loom does not read)
//	*A heading (in this file)        → #a-heading
//	#custom-id                       → #custom-id
//	https://…, mailto:…              → as written
//	id:…                             → id:… (Org-roam: the library
//	                                   resolves it by OrgIDs)
//	a search for text                → "", fuzzy
//	a code reference ("(ref)")       → ""
func orgLinkDest(target string) (dest, shown string, fuzzy bool) {
	heading := func(search string) string {
		if h, ok := strings.CutPrefix(search, "*"); ok {
			return "#" + Slug(orgPlain(strings.TrimSpace(h)))
		}
		if id, ok := strings.CutPrefix(search, "#"); ok {
			return "#" + strings.TrimSpace(id)
		}
		return ""
	}
	switch {
	case strings.HasPrefix(target, "*"), strings.HasPrefix(target, "#"):
		return heading(target), strings.TrimSpace(strings.TrimLeft(target, "*#")), false
	case strings.HasPrefix(target, "file:"), strings.HasPrefix(target, "./"), strings.HasPrefix(target, "../"):
		file, search, _ := strings.Cut(strings.TrimPrefix(target, "file:"), "::")
		shown = file
		if file == "" || strings.HasPrefix(file, "/") || strings.HasPrefix(file, "~") {
			return "", shown, false // outside the library
		}
		if _, readable := FormatOf(file); !readable {
			return "", shown, false // an image, an attachment: no note to link to
		}
		return file + heading(search), shown, false
	}
	if scheme, _, ok := strings.Cut(target, ":"); ok && !strings.ContainsAny(scheme, " /") {
		_, rest, _ := strings.Cut(target, ":")
		switch strings.ToLower(scheme) {
		case "http", "https", "ftp", "mailto":
			return target, target, false
		case "id":
			return "id:" + strings.TrimSpace(rest), rest, false
		}
		return "", rest, false // doi:…, elisp:…, a package's name: no place Markdown names
	}
	return "", target, !strings.HasPrefix(target, "(") && !strings.ContainsAny(target, "|[]")
}

// orgMeta is what an Org file says of itself in its keywords and in the
// property drawer before its first headline: #+filetags: (":a:b:" or
// "a b") are its tags, #+author: its authors, Org-roam's :ROAM_ALIASES:
// (words, or "quoted names") its aliases; and the :ID: properties of all
// its drawers (OrgIDs).
func orgMeta(src []byte) model.DocMeta {
	m := model.DocMeta{IDs: OrgIDs(src)}
	for _, l := range lineSplits(src) {
		b := lineBody(l)
		if orgHeadline.Match(b) {
			break
		}
		key, value, ok := strings.Cut(strings.TrimSpace(string(b)), ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch strings.ToLower(key) {
		case "#+filetags":
			for _, t := range strings.FieldsFunc(value, func(r rune) bool { return r == ':' || r == ' ' || r == '\t' }) {
				m.Tags = append(m.Tags, t)
			}
		case "#+author":
			if value != "" {
				m.Authors = append(m.Authors, value)
			}
		case "":
			if k, v, ok := strings.Cut(value, ":"); ok && strings.EqualFold(k, "roam_aliases") {
				m.Aliases = append(m.Aliases, orgWords(v)...)
			}
		}
	}
	return m
}

// orgWords are a property's values: words, or names in double quotes.
func orgWords(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if rest, ok := strings.CutPrefix(s, `"`); ok {
			name, after, _ := strings.Cut(rest, `"`)
			if name = strings.TrimSpace(name); name != "" {
				out = append(out, name)
			}
			s = after
			continue
		}
		word, after, _ := strings.Cut(s, " ")
		out = append(out, word)
		s = after
	}
	return out
}

// orgIDProperty is an :ID: property line of a drawer.
var orgIDProperty = regexp.MustCompile(`(?im)^[ \t]*:ID:[ \t]+(\S+)[ \t]*\r?$`)

// OrgIDs are the :ID: properties an Org file gives itself and its
// headlines, which Org-roam's links ([[id:…]]) name them by.
func OrgIDs(src []byte) []string {
	var ids []string
	for _, m := range orgIDProperty.FindAllSubmatch(src, -1) {
		ids = append(ids, string(m[1]))
	}
	return ids
}

// orgStub is the one section of an Org note that is a title and nothing
// else — the node Org-roam makes for a link before anything is written in
// it: the title line, cited as the note itself, so that the note is in
// the library and the links to it land. marked is the note as
// orgHeadings wrote it; nil when it has no title either.
func orgStub(path string, marked []byte) []Section {
	for i, l := range lineSplits(marked) {
		b := lineBody(l)
		if title, ok := bytes.CutPrefix(b, []byte("# ")); ok && len(bytes.TrimSpace(title)) > 0 {
			t := strings.TrimSpace(string(title))
			return []Section{{Ref: path, HeadingPath: []string{t}, Level: 1, LineStart: i + 1, LineEnd: i + 1,
				Text: string(b), Parent: -1, Part: 1, Parts: 1}}
		}
	}
	return nil
}
