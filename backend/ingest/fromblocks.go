package ingest

import (
	"strings"

	"github.com/loomwork/loom/backend/ingest/blocks"
)

// sectionsFromBlocks makes sections of a converted document with the rules
// markdown follows: a heading opens a section that runs to the next heading
// of its level or above; text before the first heading is a section of its
// own; a heading with no text under it is still an ancestor of what follows.
// A section's text starts with its heading. Pages are the span of the
// section's blocks; lines are the source's when the blocks carry them.
func sectionsFromBlocks(path string, bs []blocks.Block) []Section {
	var (
		out     []Section
		paths   pathArena
		parents []int // ordinal of the section of each open heading, -1 when it had none
		slugs   = newSlugger()
		cur     *Section
		body    strings.Builder
		hasBody bool
	)
	paths.titles, paths.refs = []string{}, []string{}
	flush := func() {
		if cur != nil && hasBody {
			cur.Text = strings.TrimSpace(body.String())
			cur.Ordinal = len(out)
			out = append(out, *cur)
			if n := len(parents); n > 0 && parents[n-1] == -2 {
				parents[n-1] = cur.Ordinal
			}
		}
		if n := len(parents); n > 0 && parents[n-1] == -2 {
			parents[n-1] = -1
		}
		cur, hasBody = nil, false
		body.Reset()
	}
	open := func(level int, title string, b blocks.Block) {
		flush()
		s := Section{Ref: path, Level: level, Parent: -1, Part: 1, Parts: 1}
		if level > 0 {
			if slug := slugs.slug(title); slug != "" {
				s.Ref, s.Slug = path+"#"+slug, slug
			}
			paths.push(level, title, s.Ref)
			parents = parents[:paths.depth()-1]
			for i := len(parents) - 1; i >= 0; i-- {
				if parents[i] >= 0 {
					s.Parent = parents[i]
					break
				}
			}
			parents = append(parents, -2) // this heading's section, once it has text
			hp, anc := paths.current()
			s.HeadingPath, s.Ancestors = append([]string(nil), hp...), append([]string(nil), anc...)
			body.WriteString(title)
			body.WriteString("\n\n")
		}
		s.PageStart, s.PageEnd = b.Page, b.LastPage()
		s.LineStart, s.LineEnd = b.Line, b.Line
		cur = &s
	}
	for _, b := range bs {
		text := strings.TrimSpace(b.Text)
		if b.Kind == blocks.Heading {
			if text == "" {
				continue
			}
			open(max(b.Level, 1), strings.Join(strings.Fields(text), " "), b)
			continue
		}
		if text == "" {
			continue
		}
		if cur == nil {
			open(0, "", b)
		}
		switch b.Kind {
		case blocks.Item:
			body.WriteString("- ")
		}
		body.WriteString(text)
		body.WriteString("\n\n")
		hasBody = true
		if b.Page > 0 && (cur.PageStart == 0 || b.Page < cur.PageStart) {
			cur.PageStart = b.Page
		}
		cur.PageEnd = max(cur.PageEnd, b.LastPage())
		if b.Line > 0 {
			if cur.LineStart == 0 {
				cur.LineStart = b.Line
			}
			cur.LineEnd = max(cur.LineEnd, b.Line+strings.Count(text, "\n"))
		}
	}
	flush()
	return out
}

// parseBlocks fills a document from a converted one.
func parseBlocks(doc *Document, bd *blocks.Doc) {
	doc.Title, doc.Meta = bd.Title, bd.Meta
	doc.Sections = sectionsFromBlocks(doc.Path, bd.Blocks)
}
