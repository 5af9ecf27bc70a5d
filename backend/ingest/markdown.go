package ingest

import (
	"bytes"
	"sort"
	"strings"

	"github.com/loomwork/loom/backend/model"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdownParser is goldmark with GitHub's extensions (extension.GFM),
// with two differences that change no heading and no link of ordinary
// documents. A paragraph becomes a table only up to maxTable bytes: a
// table's AST takes some eighty times the bytes of cells like "|a|b|", and
// past that size its rows are read as the paragraph they are (only a link
// or code span written across a cell's pipe would read otherwise). And the
// pass that unescapes "\|" inside code spans of table cells is left out: it
// changes no heading or link, and its work grows with the square of the
// number of such cells. It also reads Obsidian's wiki links and embeds
// (wikilink.go) and inline #tags (tags.go), ahead of goldmark's own link
// parser, so that [[Note]] is not taken for a bracketed reference.
var markdownParser = goldmark.New(
	goldmark.WithExtensions(extension.Linkify, extension.Strikethrough, extension.TaskList),
	goldmark.WithParserOptions(
		parser.WithParagraphTransformers(
			util.Prioritized(boundedTables{extension.NewTableParagraphTransformer()}, 200),
		),
		parser.WithInlineParsers(
			util.Prioritized(wikiLinkParser{}, 199),
			util.Prioritized(tagParser{}, 900),
		),
	),
).Parser()

// maxTable is the largest paragraph (in bytes) made into a GFM table.
const maxTable = 256 << 10

type boundedTables struct{ tables parser.ParagraphTransformer }

func (t boundedTables) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if lines := node.Lines(); lines.Len() > 1 && lines.At(lines.Len()-1).Stop-lines.At(0).Start > maxTable {
		return
	}
	t.tables.Transform(node, reader, pc)
}

type heading struct {
	start int // byte offset of the heading's first line
	level int
	title string
	// id is the anchor the heading's attribute list gives it ("## Setup
	// { #setup }"), "" when it has none: its section's slug.
	id string
}

type mdLink struct {
	at   int // byte offset of the link's text (or of its block, or of a wiki link)
	dest string
}

// scan is what a pass over a markdown file found, in the order met.
type scan struct {
	heads []heading
	links []mdLink // markdown links and wiki links (whole, as written)
	tags  []string // inline #tags, without "#", with repeats
}

// splitMarkdown cuts source at every heading (goldmark decides what a heading
// is, so "#" lines inside fenced code are not). Each section runs from its
// heading to the next one; text before the first heading is its own section.
// Sections with no text besides their heading line yield no node, but their
// title stays in the heading path of the sections below them. It also
// returns the note's title (front matter "title", else the first H1, else
// the file name without its extension), what its front matter and inline
// #tags say of it, and where each section's links were found, relative to
// its text (see Document.linkAt).
//
// Front matter is no section's text, and line numbers stay the file's.
// A block that cannot be read as front matter is kept as the start of the
// first section instead, as is the front matter of a note that has nothing
// else to say (a note of aliases and tags is still a note).
func splitMarkdown(path string, src []byte) ([]Section, string, model.DocMeta, []int32, string) {
	fm := ReadFrontMatter(src)
	sc := scanMarkdown(src[fm.End:])
	if fm.End > 0 {
		for i := range sc.heads {
			sc.heads[i].start += fm.End
		}
		for i := range sc.links {
			sc.links[i].at += fm.End
		}
	}
	first := skipBlankLines(src, fm.End)
	if fm.Problem != "" {
		first = 0
	}
	sections, linkAt := buildSections(path, src, first, sc.heads, sc.links)
	if len(sections) == 0 && fm.End > 0 && fm.Problem == "" && len(bytes.Trim(src[:fm.End], "-+.\n\t ")) > 0 {
		sections, linkAt = buildSections(path, src, 0, sc.heads, sc.links)
	}
	title := fm.Title
	for _, h := range sc.heads {
		if title != "" {
			break
		}
		if h.level == 1 {
			title = h.title
		}
	}
	if title == "" {
		title = noteName(path)
	}
	meta := fm.Meta
	if len(sc.tags) > 0 {
		tags := tagSet{}
		for _, t := range meta.Tags {
			tags.add(t)
		}
		for _, t := range sc.tags {
			tags.add(t)
		}
		meta.Tags = tags.tags
	}
	return sections, title, meta, linkAt, fm.Problem
}

// skipBlankLines is the start of the first line at or after off that is
// not blank, or len(src).
func skipBlankLines(src []byte, off int) int {
	for off < len(src) {
		end := len(src)
		if nl := bytes.IndexByte(src[off:], '\n'); nl >= 0 {
			end = off + nl + 1
		}
		if len(bytes.TrimSpace(src[off:end])) > 0 {
			return off
		}
		off = end
	}
	return off
}

// scanMarkdown finds the headings, links and tags of src, piece by piece.
// Link reference definitions apply to the whole file, so when it took
// several pieces and any of them defines one, the pieces are parsed again,
// each knowing every definition.
func scanMarkdown(src []byte) scan {
	var (
		sc     scan
		pieces []piece
		refs   []parser.Reference
		seen   = map[string]bool{}
	)
	for start := 0; start < len(src); {
		p, doc, pc := nextPiece(src, start)
		collect(doc, src[start:p.parseEnd], start, &sc)
		// Copies: a reference from the context holds on to its piece's AST.
		for _, r := range pc.References() {
			key := util.ToLinkReference(r.Label())
			if !seen[key] {
				seen[key] = true
				refs = append(refs, parser.NewReference(bytes.Clone(r.Label()), bytes.Clone(r.Destination()), bytes.Clone(r.Title())))
			}
		}
		pieces = append(pieces, p)
		start = p.end
	}
	if len(pieces) < 2 || len(refs) == 0 {
		return sc
	}
	sc = scan{heads: sc.heads[:0], links: sc.links[:0], tags: sc.tags[:0]}
	for _, p := range pieces {
		doc := parseMarkdown(src[p.start:p.parseEnd], refs)
		if p.trim {
			cutBlockAt(doc, src[p.start:p.parseEnd], p.end-p.start)
		}
		collect(doc, src[p.start:p.parseEnd], p.start, &sc)
	}
	return sc
}

func parseMarkdown(src []byte, refs []parser.Reference) ast.Node {
	doc, _ := parseMarkdownContext(src, refs)
	return doc
}

func parseMarkdownContext(src []byte, refs []parser.Reference) (ast.Node, parser.Context) {
	pc := parser.NewContext()
	for _, r := range refs {
		pc.AddReference(r)
	}
	return markdownParser.Parse(text.NewReader(src), parser.WithContext(pc)), pc
}

// collect appends the headings, links and tags of doc, a parse of src that
// sits at offset in the file. Wiki links and tags in a heading count (the
// heading's section holds them); markdown links there do not, as before.
func collect(doc ast.Node, src []byte, offset int, sc *scan) {
	var inHeading bool
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := n.(*ast.Heading); ok && !entering {
			inHeading = false
		}
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.Heading:
			if v.Lines().Len() == 0 {
				return ast.WalkSkipChildren, nil
			}
			seg := v.Lines().At(0)
			title, id := model.HeadingAttributes(inlineText(v, src))
			sc.heads = append(sc.heads, heading{start: offset + lineStartOf(src, seg.Start), level: v.Level, title: strings.TrimSpace(title), id: id})
			inHeading = true
		case *ast.Link:
			if !inHeading {
				sc.links = append(sc.links, mdLink{at: offset + blockOffset(v), dest: string(v.Destination)})
			}
		case *wikiLinkNode:
			sc.links = append(sc.links, mdLink{at: offset + v.raw.Start, dest: string(v.raw.Value(src))})
			return ast.WalkSkipChildren, nil
		case *tagNode:
			sc.tags = append(sc.tags, v.name)
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan, *ast.AutoLink, *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if inHeading || bytes.IndexByte(v.Segment.Value(src), '@') < 0 {
				break
			}
			var before byte
			if v.Segment.Start > 0 {
				before = src[v.Segment.Start-1]
			}
			at, keys := citations(string(v.Segment.Value(src)), before)
			for i, k := range keys {
				sc.links = append(sc.links, mdLink{at: offset + v.Segment.Start + at[i], dest: CitationLink(k)})
			}
		}
		return ast.WalkContinue, nil
	})
}

// buildSections makes the sections: one per heading that has text below
// it, and one for text before the first heading. Everything is allocated
// once at its final size (a file of a million headings makes a million
// sections), from counts taken in a first pass over the headings' levels.
// Text before first (front matter) belongs to no section.
func buildSections(path string, src []byte, first int, heads []heading, links []mdLink) ([]Section, []int32) {
	if len(heads) > 0 && heads[0].start < first {
		// A line Go calls blank that goldmark does not ("\v") can be a
		// heading's: the first region never starts after the first heading.
		first = heads[0].start
	}
	regionStart := func(r int) int { // region 0 is before the first heading, from first
		if r == 0 {
			return first
		}
		return heads[r-1].start
	}
	regionEnd := func(r int) int {
		if r < len(heads) {
			return heads[r].start
		}
		return len(src)
	}
	hasText := make([]bool, len(heads)+1)
	nSections := 0
	var plan pathArena
	for r := range hasText {
		if hasText[r] = regionHasText(src, regionStart(r), regionEnd(r), r > 0); hasText[r] {
			nSections++
		}
		if r > 0 {
			plan.push(heads[r-1].level, "", "")
		}
	}

	// Links by region, in the order goldmark met them.
	perRegion := make([]int, len(heads)+2)
	region := make([]int32, len(links))
	for i, l := range links {
		r := sort.Search(len(heads), func(k int) bool { return heads[k].start > l.at })
		region[i] = int32(r)
		perRegion[r+1]++
	}
	for r := 1; r < len(perRegion); r++ {
		perRegion[r] += perRegion[r-1]
	}
	linkDest := make([]string, len(links))
	linkPos := make([]int32, len(links))
	next := append([]int(nil), perRegion[:len(heads)+1]...)
	for i, l := range links {
		r := region[i]
		linkDest[next[r]] = l.dest
		linkPos[next[r]] = int32(l.at - regionStart(int(r)))
		next[r]++
	}
	region, next = nil, nil

	text := string(src) // one copy; section texts are slices of it
	sections := make([]Section, 0, nSections)
	linkAt := make([]int32, 0, len(links))
	paths := pathArena{titles: make([]string, 0, plan.size), refs: make([]string, 0, plan.size)}
	lines := lineCursor{text: text}
	slugs := newSlugger()
	var parents []int // ordinal of the section of each open heading, -1 when it had none
	for r := range hasText {
		start, end := regionStart(r), regionEnd(r)
		ref, slug, level, parent := path, "", 0, -1
		if r > 0 {
			h := &heads[r-1]
			level = h.level
			anchor := h.title
			if h.id != "" {
				anchor = h.id // the heading's own anchor, as MkDocs and Pandoc make it
			}
			if slug = slugs.slug(anchor); slug != "" {
				ref = path + "#" + slug
				slug = ref[len(path)+1:]
			}
			paths.push(h.level, h.title, ref)
			parents = parents[:paths.depth()-1]
			for i := len(parents) - 1; i >= 0; i-- {
				if parents[i] >= 0 {
					parent = parents[i]
					break
				}
			}
		}
		ordinal := -1
		if hasText[r] {
			ordinal = len(sections)
			s := Section{
				Ordinal: ordinal, Ref: ref, Slug: slug, Level: level,
				LineStart: 1 + lines.count(min(start, len(text)-1)),
				LineEnd:   1 + lines.countEnd(min(lastContentByte(src, start, end), len(text)-1)),
				Text:      strings.TrimRight(text[start:end], " \t\r\n"), Parent: parent, Part: 1, Parts: 1,
			}
			if r > 0 {
				s.HeadingPath, s.Ancestors = paths.current()
			}
			if lo, hi := perRegion[r], perRegion[r+1]; hi > lo {
				s.Links = linkDest[lo:hi:hi]
				linkAt = append(linkAt, linkPos[lo:hi]...)
			}
			sections = append(sections, s)
		}
		if r > 0 {
			parents = append(parents, ordinal)
		}
	}
	return sections, linkAt
}

// pathArena holds the heading paths (titles) and ancestor references of
// every section in two shared arrays. The open headings always sit at the
// end of both: a heading below the last one extends the path in place, so
// a chain of nested headings shares one run; only after a heading closes
// others is its path copied to the end. Sections get capped slices of it.
type pathArena struct {
	titles, refs []string
	levels       []int // levels of the open headings
	size         int   // elements pushed so far
}

// push opens a heading, closing those at its level or deeper.
func (a *pathArena) push(level int, title, ref string) {
	keep := len(a.levels)
	for keep > 0 && a.levels[keep-1] >= level {
		keep--
	}
	if keep < len(a.levels) {
		// The kept headings are followed by closed ones: copy them after.
		from := len(a.titles) - len(a.levels)
		if a.titles != nil {
			a.titles = append(a.titles, a.titles[from:from+keep]...)
			a.refs = append(a.refs, a.refs[from:from+keep]...)
		}
		a.size += keep
		a.levels = a.levels[:keep]
	}
	a.levels = append(a.levels, level)
	if a.titles != nil {
		a.titles = append(a.titles, title)
		a.refs = append(a.refs, ref)
	}
	a.size++
}

func (a *pathArena) depth() int { return len(a.levels) }

// current is the heading path of the last heading pushed and the
// references of the headings above it (nil when there are none).
func (a *pathArena) current() (headingPath, ancestors []string) {
	n := len(a.titles)
	from := n - len(a.levels)
	headingPath = a.titles[from:n:n]
	if len(a.levels) > 1 {
		ancestors = a.refs[from : n-1 : n-1]
	}
	return headingPath, ancestors
}

// regionHasText reports whether src[start:end] holds text besides its
// heading line (and a setext underline).
func regionHasText(src []byte, start, end int, heading bool) bool {
	rest := src[start:end]
	if heading {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return false
		}
		rest = trimSetextUnderline(rest[nl+1:])
	}
	return len(bytes.TrimSpace(rest)) > 0
}

// inlineText is a heading's text as GitHub sees it for slugs: text, code
// spans without backticks, link and emphasis text; raw HTML dropped.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch v := c.(type) {
			case *ast.Text:
				b.Write(v.Segment.Value(src))
				if v.SoftLineBreak() || v.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(v.Value)
			case *ast.AutoLink:
				b.Write(v.Label(src))
			case *ast.RawHTML:
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// blockOffset finds a source offset for an inline node: its first text
// segment, else the start of its enclosing block.
func blockOffset(n ast.Node) int {
	for c := n.FirstChild(); c != nil; c = c.FirstChild() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines() != nil && p.Lines().Len() > 0 {
			return p.Lines().At(0).Start
		}
	}
	return 0
}

func trimSetextUnderline(rest []byte) []byte {
	nl := bytes.IndexByte(rest, '\n')
	line := rest
	if nl >= 0 {
		line = rest[:nl]
	}
	t := bytes.TrimSpace(line)
	if len(t) > 0 && (len(bytes.Trim(t, "=")) == 0 || len(bytes.Trim(t, "-")) == 0) {
		if nl < 0 {
			return nil
		}
		return rest[nl+1:]
	}
	return rest
}

func lineStartOf(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

func lastContentByte(src []byte, start, end int) int {
	for end > start && (src[end-1] == '\n' || src[end-1] == '\r' || src[end-1] == ' ' || src[end-1] == '\t') {
		end--
	}
	if end <= start {
		return start
	}
	return end - 1
}
