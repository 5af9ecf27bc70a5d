package concepts

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loomwork/loom/backend/model"
)

// KeyPhrases extracts up to n key phrases with RAKE (rapid automatic keyword
// extraction): candidate phrases are runs of words between stop words and
// punctuation; a word scores its degree over its frequency; a phrase, the
// sum of its words. Only words a person would use take part: code fences,
// HTML tags and entities, markdown syntax, table rules, URLs, paths,
// code-like tokens and tokens without letters all break phrases.
func KeyPhrases(text string, n int) []string {
	var phrases [][]string
	var cur []string
	flush := func() {
		if len(cur) > 0 && len(cur) <= 4 {
			phrases = append(phrases, cur)
		}
		cur = nil
	}
	markup := htmlTag.MatchString(text) || htmlEntity.MatchString(text)
	for _, line := range proseLines(text, true) {
		for _, field := range strings.Fields(line) {
			if junkField(field, true) {
				flush()
				continue
			}
			word := strings.Builder{}
			endWord := func() {
				if word.Len() == 0 {
					return
				}
				w := strings.Trim(strings.ToLower(word.String()), "-")
				word.Reset()
				if !personWord(w) || fillerWords[w] || markup && markupWords[w] {
					flush()
					return
				}
				cur = append(cur, w)
			}
			for _, r := range field {
				switch {
				case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' && word.Len() > 0:
					word.WriteRune(r)
				case r == '\'' || r == '’':
					endWord()
				default: // punctuation ends a phrase
					endWord()
					flush()
				}
			}
			endWord()
		}
		flush()
	}
	freq := map[string]float64{}
	degree := map[string]float64{}
	for _, p := range phrases {
		for _, w := range p {
			freq[w]++
			degree[w] += float64(len(p))
		}
	}
	type scored struct {
		text  string
		score float64
		first int
	}
	best := map[string]*scored{}
	for i, p := range phrases {
		s := 0.0
		for _, w := range p {
			s += degree[w] / freq[w]
		}
		key := strings.Join(p, " ")
		if b, ok := best[key]; ok {
			b.score += s * 0.5 // repeated phrases gain, sublinearly
			continue
		}
		best[key] = &scored{key, s, i}
	}
	list := make([]*scored, 0, len(best))
	for _, b := range best {
		list = append(list, b)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].first < list[j].first
	})
	var out []string
	for _, b := range list {
		if len(out) == n {
			break
		}
		dup := false
		for _, o := range out {
			if strings.Contains(o, b.text) || strings.Contains(b.text, o) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, b.text)
		}
	}
	return out
}

// Untitled is the name of a concept whose text, heading and document offer
// no words a person would use.
const Untitled = "Untitled topic"

// Name makes a readable concept name from its founding text: the heading
// when it has words a person would use ("Table 3" and "1.2.3" do not),
// else the two best key phrases of the text, else the first few words of
// the text that survive the same cleaning, else the first usable fallback
// (outer headings, the document's title), else Untitled. The name always
// has letters and never shows markup, code, URLs or bare numbers.
func Name(heading, text string, fallbacks ...string) string {
	if h := cleanHeading(heading); h != "" {
		return h
	}
	if ps := KeyPhrases(text, 2); len(ps) > 0 {
		return strings.Join(ps, " · ")
	}
	if w := personWords(text, 6); w != "" {
		return w
	}
	for _, f := range fallbacks {
		if h := cleanHeading(f); h != "" {
			return h
		}
	}
	return Untitled
}

// NameIn names the concept founded by a section: Name of its innermost
// heading and text, falling back to the outer headings, innermost first,
// then to the document's title, then to its file name. A heading every
// document may have ("DESCRIPTION", "Introduction", "Acknowledgments")
// says what the section is, not what it is about: its concept is named
// with the nearest outer heading, title or file name that says more —
// "Description · cargo-build(1)", "Introduction · Sequence Modeling With
// CTC" — so that the graph, the clusters and the catalog do not show five
// concepts of one name.
func NameIn(headingPath []string, title, path, text string) string {
	heading := ""
	if len(headingPath) > 0 {
		heading = headingPath[len(headingPath)-1]
	}
	fallbacks := outward(headingPath, title, path)
	name := Name(heading, text, fallbacks...)
	g, ok := genericHeadings[strings.ToLower(name)]
	if !ok {
		return name
	}
	if documentHeadings[strings.ToLower(g)] {
		// A part of the whole document: named with its title, whatever
		// heading a web page's markup put it under ("Acknowledgments ·
		// Growing Neural Cellular Automata", not "… · Conclusion").
		fallbacks = append([]string{title}, fallbacks...)
	}
	if q := qualifier(g, fallbacks); q != "" {
		return g + " · " + q
	}
	return g
}

// Distinct is the name of a new concept whose name another concept has
// already (taken tells which names are): qualified by what its founding
// section's place says besides it when that concept is another
// document's (Qualify), else by what its text is about (QualifyByText);
// the name as it is when nothing tells them apart.
func Distinct(name string, otherDocument bool, headingPath []string, title, path, text string, taken func(string) bool) string {
	q := ""
	if otherDocument {
		q = Qualify(name, headingPath, title, path)
	}
	if q == "" {
		q = QualifyByText(name, text, taken)
	}
	if q == "" {
		return name
	}
	return q
}

// Qualify is a concept's name told apart from another concept's of the
// same name: the name and the nearest outer heading, title or file name
// of its founding section that says something else ("Configuration
// format · Registry Index"), or "" when none does.
func Qualify(name string, headingPath []string, title, path string) string {
	if q := qualifier(name, outward(headingPath, title, path)); q != "" {
		return name + " · " + q
	}
	return ""
}

// QualifyByText is a concept's name told apart from another concept's of
// the same name in the same place (two parts of one long section): the
// name and the best key phrase of its founding text that the name does
// not say already and that makes a name not taken ("Configuration format
// · commands cargo runs"), or "".
func QualifyByText(name, text string, taken func(string) bool) string {
	phrases := KeyPhrases(text, 5)
	// A phrase of two words or more says more than one word does ("git
	// repository", not "covered"): they come first, best first.
	sort.SliceStable(phrases, func(i, j int) bool {
		return strings.Contains(phrases[i], " ") && !strings.Contains(phrases[j], " ")
	})
	for _, p := range phrases {
		if strings.Contains(letters(name), letters(p)) {
			continue
		}
		if q := name + " · " + model.Clip(p, maxQualifier); taken == nil || !taken(q) {
			return q
		}
	}
	return ""
}

// outward is what a section's name falls back to: its outer headings,
// innermost first, the document's title, its file's name.
func outward(headingPath []string, title, path string) []string {
	var out []string
	for i := len(headingPath) - 2; i >= 0; i-- {
		out = append(out, headingPath[i])
	}
	stem := filepath.Base(filepath.ToSlash(path))
	stem = strings.TrimSuffix(stem, filepath.Ext(stem))
	stem = strings.Join(strings.FieldsFunc(stem, func(r rune) bool { return r == '-' || r == '_' || r == '.' }), " ")
	return append(out, title, stem)
}

// qualifier is the first of fallbacks that names something besides name
// and is not a generic heading itself (else the first generic one that
// does), clipped; "" when none does.
func qualifier(name string, fallbacks []string) string {
	for _, generic := range []bool{false, true} {
		// Generic ones only when nothing else is there ("Index · Glossary").
		for _, f := range fallbacks {
			q := cleanHeading(f)
			if q == "" || Generic(q) != generic || strings.Contains(letters(name), letters(q)) {
				continue
			}
			return model.Clip(q, maxQualifier)
		}
	}
	return ""
}

// letters is s in lower case without what is not a letter or a digit:
// "Feature-wise transformations" and "feature wise transformations" say
// the same.
func letters(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// maxQualifier is how long the heading or title that qualifies a generic
// heading may run before it is clipped with "…".
const maxQualifier = 32

// Generic tells whether a concept's name is a generic heading, qualified
// or not ("Introduction", "Description · cargo-build(1)"): it says what
// its section is, not what it is about.
func Generic(name string) bool {
	head, _, _ := strings.Cut(name, " · ")
	_, ok := genericHeadings[strings.ToLower(strings.TrimSpace(head))]
	return ok || name == Untitled
}

// GenericWord tells whether a lower-case word is a generic heading by
// itself ("introduction", "appendix"): a title's word that says what the
// document is made of, not what it is about.
func GenericWord(w string) bool {
	_, ok := genericHeadings[w]
	return ok
}

// genericHeadings are the headings of a document's parts that any document
// of its kind may have — a paper's, a manual page's, a project's — by
// their lower case, each with the name it is written with.
var genericHeadings = func() map[string]string {
	m := map[string]string{}
	for _, h := range append([]string{
		// papers and reports
		"Background", "Motivation", "Preliminaries", "Related work", "Method", "Methods", "Methodology", "Approach",
		"Experiments", "Experimental setup", "Evaluation", "Results", "Discussion", "Limitations", "Future work",
		"Summary", "Notes", "Discussion and review",
		// manual pages
		"Name", "Synopsis", "Description", "Options", "Examples", "Example", "Exit status", "Environment", "Files",
		"See also", "Bugs", "Authors", "Author", "History", "Return value", "Errors",
		// documentation and projects
		"Overview", "Usage", "Installation", "Getting started", "Requirements", "Configuration", "Troubleshooting",
		"FAQ", "Contents", "Table of contents", "Index", "Details", "Preface", "Glossary", "Setup", "Further reading",
		"Resources", "Basics", "Definitions", "General", "Other", "Misc", "Miscellaneous", "TODO",
		// proposals (RFCs)
		"Drawbacks", "Alternatives", "Rationale", "Prior art", "Unresolved questions",
	}, wholeDocument...) {
		m[strings.ToLower(h)] = h
	}
	return m
}()

// wholeDocument are the generic headings of a part of the whole document
// rather than of the section before it: a paper's front and back matter, a
// project's.
var wholeDocument = []string{"Abstract", "Introduction", "Conclusion", "Conclusions", "Acknowledgments",
	"Acknowledgements", "Author contributions", "References", "Bibliography", "Appendix", "Supplementary material",
	"Footnotes", "Citation", "Updates and corrections", "Reuse", "DOI", "How to cite", "Cite as", "BibTeX citation",
	"License", "Changelog", "Contributing"}

// documentHeadings are wholeDocument by their lower case.
var documentHeadings = func() map[string]bool {
	m := map[string]bool{}
	for _, h := range wholeDocument {
		m[strings.ToLower(h)] = true
	}
	return m
}()

// cleanHeading is the heading without numbering, markdown and markup, or ""
// when what is left is not a name: no letters, too long, a bare caption
// ("Table 3", "Figure 2b"), or code.
func cleanHeading(h string) string {
	if d := definitionHeading(h); d != "" {
		return d
	}
	if h = headingWords(h); len(h) > 60 {
		return ""
	}
	return h
}

// definitionHeading is a source definition's heading as its concept's
// name, "" for any other heading: its kind and its name as written
// ("method Parser.read_header", "func parse_line"), a long definition's
// part number left out. A person reading code calls it by that name; the
// cleaning of prose headings would drop the snake_case name and keep the
// bare kind ("method").
func definitionHeading(h string) string {
	h = strings.TrimSpace(model.PartSuffix.ReplaceAllString(h, ""))
	f := strings.Fields(h)
	if len(f) != 2 || !definitionKinds[f[0]] || len(f[1]) > 60 || !strings.ContainsFunc(f[1], unicode.IsLetter) {
		return ""
	}
	for _, r := range f[1] {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_.$~:", r) {
			return ""
		}
	}
	return h
}

// definitionKinds are the words a source definition's heading starts with
// (backend/ingest's code sections: "func Rank", "class Parser").
var definitionKinds = map[string]bool{
	"func": true, "method": true, "type": true, "struct": true, "interface": true, "class": true,
	"const": true, "var": true, "enum": true, "macro": true, "trait": true, "impl": true, "package": true,
	"union": true, "namespace": true, "module": true,
}

// headingWords is the cleaned heading, whatever its length, or "" when it
// has no words a person would use.
func headingWords(h string) string {
	h = placeholders(h)
	h = headingID.ReplaceAllString(h, "")
	h = htmlTag.ReplaceAllString(h, " ")
	h = htmlEntity.ReplaceAllString(h, " ")
	h = mdLink.ReplaceAllString(h, "$1")
	h = bracketedWord.ReplaceAllString(h, "$1") // "The [workspace] section", "[build]": a TOML table's name
	h = strings.NewReplacer("**", "", "__", "", "`", "", "*", "").Replace(h)
	h = strings.Join(strings.Fields(h), " ")
	h = strings.TrimLeft(h, "#0123456789.)( ")
	h = strings.TrimSpace(strings.TrimRight(h, ":;,-–— "))
	if h == "" || !strings.ContainsFunc(h, unicode.IsLetter) || strings.ContainsAny(h, "<>|{}[]=\\") {
		return ""
	}
	caption := true
	var kept []string
	for _, f := range strings.Fields(h) {
		if junkField(f, false) {
			continue // a URL or code in a heading goes; a file name stays
		}
		kept = append(kept, f)
		lw := strings.ToLower(strings.Trim(f, ".:,;()"))
		if strings.ContainsFunc(lw, unicode.IsLetter) && !captionWords[lw] && !(len(lw) <= 2 && strings.ContainsFunc(lw, unicode.IsDigit)) {
			caption = false
		}
	}
	if caption {
		return ""
	}
	return strings.TrimSpace(strings.TrimRight(strings.Join(kept, " "), ":;,-–— "))
}

// personWords is the first n words of the text a person would use, or "".
func personWords(text string, n int) string {
	markup := htmlTag.MatchString(text) || htmlEntity.MatchString(text)
	var out []string
	for _, line := range proseLines(text, true) {
		for _, f := range strings.Fields(line) {
			w := strings.Trim(f, ".,;:!?\"'()*_“”‘’")
			if junkField(f, true) || !personWord(strings.ToLower(w)) && !stopWords[strings.ToLower(w)] || markup && markupWords[strings.ToLower(w)] ||
				strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }) {
				continue
			}
			out = append(out, w)
			if len(out) == n {
				break
			}
		}
		if len(out) == n {
			break
		}
	}
	for _, w := range out { // a name of stop words alone is no name
		if !stopWords[strings.ToLower(w)] {
			return strings.Join(out, " ")
		}
	}
	return ""
}

// proseLines is the text's lines without code fences and their content,
// table rules, HTML comments, tags and entities, and markdown link targets.
// For names (phrases), a tag or an inline code span breaks a phrase; for
// descriptions (prose), a tag is a space and inline code stays as written.
func proseLines(text string, phrases bool) []string {
	tag, code := " ", "$0"
	if phrases {
		tag, code = " , ", " , "
	}
	text = htmlComment.ReplaceAllString(text, " ")
	text = htmlTag.ReplaceAllString(text, tag)
	text = htmlEntity.ReplaceAllString(text, tag)
	text = mdLink.ReplaceAllString(text, "$1")
	var out []string
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || tableRule.MatchString(t) || phrases && atxHeading.MatchString(t) && headingWords(t) == "" {
			continue // fenced code, table rules; junk headings ("# Table 3")
		}
		out = append(out, inlineCode.ReplaceAllString(t, code))
	}
	return out
}

// placeholders writes a placeholder of a heading's code ("profile.<name>.split-debuginfo",
// "target.<triple>.linker") as its word in capitals ("profile.NAME.split-debuginfo"),
// which a name may show, where stripping it as an HTML tag would leave
// "profile. .split-debuginfo". A tag of HTML's own stays a tag.
func placeholders(h string) string {
	return placeholder.ReplaceAllStringFunc(h, func(m string) string {
		w := strings.ToLower(m[1 : len(m)-1])
		if htmlElements[w] {
			return m
		}
		return strings.ToUpper(strings.ReplaceAll(w, "-", "_"))
	})
}

var (
	placeholder = regexp.MustCompile(`<[a-zA-Z][a-zA-Z0-9_-]*>`)
	// headingID is a heading's explicit anchor ("Renaming items {#item-remove}").
	headingID = regexp.MustCompile(`\s*\{#[^{}]*\}\s*$`)
	// bracketedWord is a name in brackets that is not a link: "[workspace]", "[target.NAME]".
	bracketedWord = regexp.MustCompile(`\[([A-Za-z][A-Za-z0-9_.-]*)\]`)
)

// htmlElements are the element names of HTML that headings carry.
var htmlElements = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(`a abbr b bdi bdo big blockquote br center cite code dd del dfn div dl dt em
		font h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark nobr ol p pre q s samp small span strike strong sub sup
		table tbody td tfoot th thead time tr tt u ul var wbr section article figure figcaption details summary
		label input button svg path iframe script style link meta caption col colgroup header footer nav main
		aside picture source video audio canvas math mi mo mn mrow ruby rt rp data output meter progress
		template slot object embed param track map area noscript address hgroup menu dialog form fieldset
		legend select option optgroup textarea datalist html head body title base`) {
		m[e] = true
	}
	return m
}()

var (
	htmlTag     = regexp.MustCompile(`</?[a-zA-Z][a-zA-Z0-9-]*(\s[^<>]*)?/?>`)
	htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	htmlEntity  = regexp.MustCompile(`&(#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z]{2,8});`)
	mdLink      = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	inlineCode  = regexp.MustCompile("`([^`\n]*)`")
	atxHeading  = regexp.MustCompile(`^#{1,6}(\s|$)`)
	tableRule   = regexp.MustCompile(`^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$|^[-=*_]{3,}$`)
	sciNumber   = regexp.MustCompile(`^[0-9]*\.?[0-9]+e[+-]?[0-9]+$`)
	unitNumber  = regexp.MustCompile(`^[0-9]+([.,][0-9]+)?(x|k|m|g|kg|mg|ug|µg|ml|mm|cm|km|ms|ns|us|µs|h|hr|hrs|min|px|pt|em|kb|mb|gb|tb|hz|khz|mhz|ghz|kda|bp|kb|nm|mm|mol|mmol|fps)$`)
	hexNumber   = regexp.MustCompile(`^(0x[0-9a-f]+|[0-9a-f]{7,})$`) // 0xff, commit hashes
)

// junkField says whether a whitespace-separated field is not prose: a URL,
// a path, an e-mail address, or code (identifiers with underscores, calls,
// assignments, operators); strict, also dotted names (os.Open, loom.yaml).
func junkField(f string, strict bool) bool {
	f = strings.Trim(f, ".,;:!?\"'“”‘’")
	switch {
	case f == "":
		return false
	case strings.Contains(f, "://") || strings.HasPrefix(strings.ToLower(f), "www."):
		return true
	case strings.HasPrefix(f, "/") && strings.Count(f, "/") >= 2, strings.HasPrefix(f, "~/"), strings.HasPrefix(f, "./"),
		strings.HasPrefix(f, "../"), strings.Contains(f, "\\") && strings.ContainsFunc(f, unicode.IsLetter):
		return true
	case strings.Contains(f, "@") && strings.Contains(f, "."):
		return true
	case strings.Contains(strings.Trim(f, "_*"), "_"):
		return true // snake_case (but not _emphasis_)
	case strings.Contains(f, "()") || strings.Contains(f, "=") || strings.Contains(f, "::") || strings.Contains(f, "->") ||
		strings.Contains(f, "=>") || strings.ContainsAny(f, "{};$"):
		return true
	}
	// dotted identifiers and file names: os.Open, config.yaml
	if i := strings.IndexByte(f, '.'); strict && i > 0 && i < len(f)-1 && !strings.ContainsFunc(f, unicode.IsSpace) {
		a, b := f[:i], f[i+1:]
		if strings.ContainsFunc(a, unicode.IsLetter) && strings.ContainsFunc(b, unicode.IsLetter) && !strings.Contains(b, ".") {
			return true
		}
	}
	return false
}

// personWord says whether a lower-case token can be part of a concept
// name: at least three characters, a letter, not a stop word, not a number
// in disguise (1e-3, 0xff, 100ms) or a long identifier.
func personWord(w string) bool {
	if utf8.RuneCountInString(w) < 3 && !strings.ContainsFunc(w, ideograph) || stopWords[w] || !strings.ContainsFunc(w, unicode.IsLetter) {
		return false
	}
	if !strings.ContainsFunc(w, unicode.IsDigit) {
		return true // none of the numbers in disguise below is without digits
	}
	if sciNumber.MatchString(w) || hexNumber.MatchString(w) && strings.ContainsFunc(w, unicode.IsDigit) {
		return false
	}
	letters, digits := 0, 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			letters++
		} else if unicode.IsDigit(r) {
			digits++
		}
	}
	// gene and cell names (h19, p16, 4q25) are words; quantities (100ms,
	// 5mg) and identifiers (nct00479375) are not
	return !unitNumber.MatchString(w) && !(digits > 4 && digits > letters)
}

// ideograph says whether a rune is of a script whose words are short:
// Han, kana, Hangul.
func ideograph(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// captionWords are the words of headings that only number a thing.
var captionWords = map[string]bool{"table": true, "tab": true, "figure": true, "fig": true, "section": true, "sec": true,
	"chapter": true, "appendix": true, "part": true, "listing": true, "example": true, "step": true, "page": true,
	"item": true, "eq": true, "equation": true, "box": true, "exhibit": true, "supplementary": true, "untitled": true, "no": true}

// markupWords are HTML tag, attribute and entity words that are not prose;
// they are dropped from the key phrases of a text that contains markup (the
// tags themselves are gone by then; these come from escaped markup).
var markupWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`span div class href src style td tr th br nbsp amp quot lt gt img alt colspan rowspan
cellpadding cellspacing valign bgcolor tbody thead tfoot ul ol li dl dt dd onclick xmlns px rgb rgba iframe svg`) {
		m[w] = true
	}
	return m
}()

// Describe is a one-sentence description: the first sentence of the text
// (after headings; without code, tables, HTML markup and link targets), at
// most 160 characters; "" when the text has no prose with letters.
func Describe(text string) string {
	var body []string
	for _, t := range proseLines(text, false) {
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "---") {
			continue
		}
		body = append(body, strings.TrimLeft(t, "-*> "))
	}
	s := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if !strings.ContainsFunc(s, unicode.IsLetter) {
		return ""
	}
	for i, r := range s {
		if (r == '.' || r == '?' || r == '!') && (i+1 == len(s) || s[i+1] == ' ') && i > 20 {
			s = s[:i+1]
			break
		}
	}
	if len(s) > 160 {
		cut := strings.LastIndexByte(s[:157], ' ')
		if cut < 80 {
			cut = 157
			for !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
		s = s[:cut] + "…"
	}
	return s
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are aren as at be because been
before being below between both but by can cannot could did do does doing don down during each either else etc even ever every
few for from further get gets got had has have having he her here hers herself him himself his how however i if in into is isn it
its itself just least less let like likely made make makes many may me might more most much must my myself need needs neither
no nor not now of off often on once one only or other others our ours ourselves out over own per rather same see seen several shall
she should since so some such than that the their theirs them themselves then there these they this those though through thus to
too under until up upon us use used uses using very via was we well were what when where whether which while who whom whose why will
with within without would yet you your yours yourself yourselves new two three first second based within across among e g eg ie
i.e e.g vs also into onto`) {
		m[w] = true
	}
	return m
}()

// fillerWords say how the writer feels about a thing, or how much, not
// what it is: they end a key phrase as a stop word does ("a beautiful free
// lunch indeed" → "free lunch"; "a little known formula" → "formula").
var fillerWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`beautiful indeed gentle simple simply really quite great good nice interesting
various certainly actually basically clearly especially particularly usually generally typically already always never
still instead probably perhaps maybe exactly truly easily nearly almost little known whole entire somewhat fairly pretty
lot lots thing things way ways kind sort bit fact surprisingly remarkably obviously essentially mostly largely slightly`) {
		m[w] = true
	}
	return m
}()

// Words are the words of a short text (a title, a name) that can be part
// of a concept name, lower-cased, in order: split at anything but letters
// and digits, without stop words, numbers or code (see personWord).
func Words(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if w := strings.ToLower(f); personWord(w) {
			out = append(out, w)
		}
	}
	return out
}
