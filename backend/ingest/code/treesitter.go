package code

import (
	"bytes"
	"fmt"
	"math"
	"strings"
)

// grammar is what reads one language's trees into definitions (the
// trees themselves come from parseTree, which each build provides).
type grammar struct {
	extract func(*tsFile)
	// refs visits one node of a definition's subtree, recording the
	// references it makes; it returns whether to walk the node's children.
	refs func(t *tsFile, r *refSet, n *node) bool
	// builtins are names never recorded as references.
	builtins map[string]bool
}

var grammars = map[Lang]*grammar{
	Python:     {extract: extractPython, refs: pythonRefs, builtins: words(pythonBuiltins)},
	JavaScript: {extract: extractJS, refs: jsRefs, builtins: words(jsBuiltins)},
	TypeScript: {extract: extractJS, refs: jsRefs, builtins: words(jsBuiltins)},
	TSX:        {extract: extractJS, refs: jsRefs, builtins: words(jsBuiltins)},
	Rust:       {extract: extractRust, refs: rustRefs, builtins: words(rustBuiltins)},
	Java:       {extract: extractJava, refs: javaRefs, builtins: words(javaBuiltins)},
	C:          {extract: extractC, refs: cRefs, builtins: words(cBuiltins)},
	CPP:        {extract: extractC, refs: cRefs, builtins: words(cBuiltins)},
}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// tsFile is the state of reading one file's tree.
type tsFile struct {
	g    *grammar
	lang Lang
	path string
	src  []byte
	f    *File
	root *node
	// quals are the names imports bind: X in X.Name is a qualifier when X
	// is one of them.
	quals map[string]bool
	// pending are the nodes whose references are gathered once every
	// definition is known, one entry per Def.
	pending []refWork
	// skip marks nodes whose references belong to another definition (a
	// class's methods) or to none (a definition's own name).
	skip map[nodeKey]bool
	// known are the simple names the file defines at its top level: a
	// plain identifier naming one of them, or an import's binding, is a
	// reference even when it is not called.
	known map[string]bool
	// private marks methods that stay unexported in an exported class.
	private map[int]bool
}

// refWork are a definition's nodes: the first is walked even when it is
// skipped within its parent's; extra are walked under the skip rules.
// locals are names declared around the definition: type parameters.
type refWork struct {
	nodes, extra []*node
	locals       []string
}

// maxSegments bounds how often a file is parsed again past a syntax error.
const maxSegments = maxProblems

// parseTreeSitter parses src with lang's grammar and extracts its
// definitions. Error recovery sometimes folds the rest of a file into one
// ERROR node (an unclosed parenthesis in Python): then the file is parsed
// again from the next line that starts a statement at the left margin, with
// everything before it blanked out so that offsets and lines stay, up to
// maxSegments times.
func parseTreeSitter(lang Lang, path string, src []byte) (*File, error) {
	g := grammars[lang]
	if g == nil {
		return nil, &unsupportedError{what: lang.title() + " parser", why: "no grammar is built in"}
	}
	if int64(len(src)) >= math.MaxUint32 {
		return nil, fmt.Errorf("%s is %d bytes, more than the %s parser reads (4 GiB): read it as text", path, len(src), lang.title())
	}
	var f *File
	seg := src
	// the names imported or defined above a later part still count in it
	quals, known := map[string]bool{}, map[string]bool{}
	for n := 0; ; n++ {
		part, resume, err := parseSegment(g, lang, path, seg, n+1 < maxSegments, quals, known)
		if err != nil {
			return nil, err
		}
		if f == nil {
			f = part
		} else {
			f.merge(part)
		}
		if resume == 0 {
			break
		}
		f.cut(resume)
		if n == 0 {
			seg = append([]byte(nil), src...)
		}
		for i := range lineOffset(src, resume) {
			if seg[i] != '\n' && seg[i] != ' ' {
				seg[i] = ' '
			}
		}
	}
	return f, nil
}

// cut keeps what starts before line resume, where a later parse takes over.
func (f *File) cut(resume int) {
	keep := 0
	for keep < len(f.Defs) && f.Defs[keep].LineStart < resume {
		keep++
	}
	f.Defs = f.Defs[:keep]
	for i := range f.Defs {
		d := &f.Defs[i]
		if d.Parent >= keep {
			d.Parent = -1
		}
		if d.LineEnd >= resume {
			d.LineEnd = max(d.LineStart, resume-1)
		}
	}
	problems := f.Problems[:0]
	for _, p := range f.Problems {
		var line int
		if _, err := fmt.Sscanf(p, "line %d:", &line); err == nil && line < resume {
			problems = append(problems, p)
		}
	}
	f.Problems = problems
}

// merge adds a later part of the file.
func (f *File) merge(part *File) {
	off := len(f.Defs)
	for _, d := range part.Defs {
		if d.Parent >= 0 {
			d.Parent += off
		}
		f.Defs = append(f.Defs, d)
	}
	seen := map[Import]bool{}
	for _, i := range f.Imports {
		seen[i] = true
	}
	for _, i := range part.Imports {
		if !seen[i] {
			f.Imports = append(f.Imports, i)
		}
	}
	f.Problems = append(f.Problems, part.Problems...)
	f.Partial = f.Partial || part.Partial
	if f.Package == "" {
		f.Package = part.Package
	}
}

// treeOf parses a source file into its tree: parseTree, which each build
// provides (tests put the web edition's in its place).
var treeOf = parseTree

// parseSegment parses src once. resume is the line to parse again from
// when a top-level ERROR node runs over several lines, 0 otherwise.
func parseSegment(g *grammar, lang Lang, path string, src []byte, again bool, quals, known map[string]bool) (*File, int, error) {
	root, err := treeOf(lang, path, src)
	if err != nil {
		return nil, 0, err
	}
	t := &tsFile{
		g: g, lang: lang, path: path, src: src,
		f:       &File{Lang: lang},
		root:    root,
		quals:   quals,
		skip:    map[nodeKey]bool{},
		known:   known,
		private: map[int]bool{},
	}
	resume := 0
	if root.HasError() {
		t.f.Partial = true
		t.problems(root)
		if again {
			resume = t.resumeLine()
		}
	}
	g.extract(t)
	t.gatherRefs()
	return t.f, resume, nil
}

// resumeLine looks at the file's last top-level node: when it is an ERROR
// node over several lines, which swallowed the rest of the file, it returns
// the first line after its start that begins at the left margin with
// something other than a closing bracket or a comment; 0 otherwise.
func (t *tsFile) resumeLine() int {
	cs := t.children(t.root)
	for i := len(cs) - 1; i >= 0; i-- { // the last statement, comments aside
		c := cs[i]
		if t.typ(c.n) == "comment" || strings.HasSuffix(t.typ(c.n), "_comment") {
			continue
		}
		if !c.n.IsError() || endLine(c.n) == lineOf(c.n) {
			return 0
		}
		from := lineOf(c.n)
		off := lineOffset(t.src, from+1)
		for line := from + 1; off < len(t.src); line++ {
			end := bytes.IndexByte(t.src[off:], '\n')
			if end < 0 {
				end = len(t.src) - off
			}
			text := t.src[off : off+end]
			if len(text) > 0 && !bytes.ContainsAny(text[:1], " \t\r}])#*/") {
				return line
			}
			off += end + 1
		}
		return 0
	}
	return 0
}

// problems lists the ERROR and MISSING nodes as syntax errors.
func (t *tsFile) problems(root *node) {
	t.walk(root, func(n *node) bool {
		if len(t.f.Problems) >= maxProblems {
			return false
		}
		switch {
		case n.IsMissing():
			t.f.Problems = append(t.f.Problems, problem(lineOf(n), "missing "+t.typ(n)))
			return false
		case n.IsError():
			msg := "syntax error"
			if s := oneLine(t.text(n)); s != "" {
				if r := []rune(s); len(r) > 40 {
					s = string(r[:39]) + "…"
				}
				msg += " at " + fmt.Sprintf("%q", s)
			}
			t.f.Problems = append(t.f.Problems, problem(lineOf(n), msg))
			return false
		}
		return n.HasError()
	})
}

// add appends a definition whose references are gathered from nodes.
func (t *tsFile) add(d Def, nodes ...*node) int {
	t.f.Defs = append(t.f.Defs, d)
	t.pending = append(t.pending, refWork{nodes: nodes})
	return len(t.f.Defs) - 1
}

// header is a declaration's text before its body on one line: up to the
// end of the last child before body that is not a comment, without the
// comments inside it — on one line, "def get(  # type: ignore[override]"
// and the parameters after it would read as one comment.
func (t *tsFile) header(n, body *node) string {
	from, to := n.StartByte(), t.headerEnd(n, body)
	var b []byte
	at := from
	t.walk(n, func(c *node) bool {
		if c.StartByte() >= to || c.EndByte() <= at {
			return false
		}
		if strings.HasSuffix(t.typ(c), "comment") { // comment, line_comment, block_comment
			b = append(append(b, span(t.src, int(at), int(c.StartByte()))...), ' ')
			at = c.EndByte()
			return false
		}
		return true
	})
	if b == nil {
		return t.sig(from, to)
	}
	return oneLine(string(b) + span(t.src, int(at), int(to)))
}

// headerEnd is where a declaration's header ends: at the end of its last
// child before body that is not a comment, or at its end without a body.
func (t *tsFile) headerEnd(n, body *node) uint32 {
	if body == nil {
		return n.EndByte()
	}
	end := n.StartByte()
	for _, c := range t.children(n) {
		if c.n.StartByte() >= body.StartByte() {
			break
		}
		if t.typ(c.n) != "comment" {
			end = c.n.EndByte()
		}
	}
	return end
}

// sig is the source from one byte offset to another on one line.
func (t *tsFile) sig(from, to uint32) string {
	return oneLine(span(t.src, int(from), int(to)))
}

// gatherRefs walks every definition's nodes for references, now that the
// file's top-level names are known.
func (t *tsFile) gatherRefs() {
	for _, d := range t.f.Defs {
		if d.Parent == -1 || d.Kind == "const" || d.Kind == "var" {
			t.known[simpleName(d.Name)] = true
		}
	}
	for i := range t.pending {
		w := &t.pending[i]
		if len(w.nodes) > 0 && w.nodes[0] != nil {
			w.locals = append(w.locals, t.typeParams(w.nodes[0])...)
		}
		if p := t.f.Defs[i].Parent; p >= 0 && p < i {
			w.locals = append(w.locals, t.pending[p].locals...)
		}
		var r refSet
		for _, l := range w.locals {
			r.local(l)
		}
		for _, n := range w.nodes {
			// the definition's own node is walked even when it is skipped
			// within its parent's
			if n != nil && t.g.refs(t, &r, n) {
				for _, c := range t.children(n) {
					t.walkRefs(&r, c.n)
				}
			}
		}
		for _, n := range w.extra {
			for _, c := range t.children(n) {
				t.walkRefs(&r, c.n)
			}
		}
		// a definition naming itself says nothing
		own := simpleName(t.f.Defs[i].Name)
		refs := r.refs[:0]
		for _, ref := range r.refs {
			if ref.Name != own || ref.Qual != "" {
				refs = append(refs, ref)
			}
		}
		t.f.Defs[i].Refs = refs
	}
}

func simpleName(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// typeParams are the names of a declaration's type parameters: <T, U>.
func (t *tsFile) typeParams(n *node) []string {
	var out []string
	for _, c := range t.children(n) {
		switch t.typ(c.n) {
		case "type_parameters", "template_parameter_list":
			for _, p := range t.children(c.n) {
				switch t.typ(p.n) {
				case "type_identifier", "identifier":
					out = append(out, t.text(p.n))
				default:
					if id := t.field(p.n, "name"); id != nil {
						out = append(out, t.text(id))
					} else if id := t.ofType(p.n, "type_identifier", "identifier"); id != nil {
						out = append(out, t.text(id))
					}
				}
			}
		}
	}
	return out
}

// use records a reference unless it is a builtin.
func (t *tsFile) use(r *refSet, name, qual string, call bool) {
	if qual == "" && (t.g.builtins[name] || r.locals[name]) {
		return
	}
	r.add(name, qual, call)
}

// mention records a plain identifier used as a value when it names
// something the file defines or imports.
func (t *tsFile) mention(r *refSet, n *node) {
	if name := t.text(n); t.known[name] || t.quals[name] {
		t.use(r, name, "", false)
	}
}

// docComments gathers the comments (and attributes or decorators, which
// only move the start) right above a definition: comments is the run of
// pending siblings before it with no blank line between them and it.
func (t *tsFile) docComments(pending []*node, decl *node, isDoc func(*node) bool) (doc string, startLine int) {
	startLine = lineOf(decl)
	next := startLine
	first := len(pending)
	for i := len(pending) - 1; i >= 0; i-- {
		if endLine(pending[i]) < next-1 {
			break
		}
		first, next = i, lineOf(pending[i])
	}
	var docs []string
	for _, p := range pending[first:] {
		if isDoc(p) {
			docs = append(docs, strings.TrimRight(t.text(p), "\r\n"))
		}
	}
	if first < len(pending) {
		startLine = lineOf(pending[first])
	}
	return strings.Join(docs, "\n"), startLine
}

// walkRefs applies the grammar's reference visitor to n's subtree, leaving
// out skipped nodes.
func (t *tsFile) walkRefs(r *refSet, n *node) {
	t.walk(n, func(n *node) bool {
		if t.skip[key(n)] {
			return false
		}
		return t.g.refs(t, r, n)
	})
}

// rootTypes are the node types that can start a qualified name.
var rootTypes = map[string]bool{
	"identifier": true, "type_identifier": true, "namespace_identifier": true,
	"crate": true, "self": true, "super": true, "package_identifier": true,
}

// dotted splits a member-like node X.Name (an attribute, member
// expression, scoped identifier…), whose object and member are the fields
// objField and nameField: name is the member; qual is X, spaces removed,
// when X is a chain of names of the same kind rooted at an import binding;
// ok tells whether X is such a chain at all.
func (t *tsFile) dotted(n *node, objField, nameField string) (name, qual string, ok bool) {
	var obj, nm *node
	for _, c := range t.children(n) {
		switch c.field {
		case objField:
			obj = c.n
		case nameField:
			nm = c.n
		}
	}
	if nm == nil {
		return "", "", false
	}
	name = t.text(nm)
	if obj == nil {
		return name, "", true
	}
	root, ty := obj, t.typ(n)
	for !rootTypes[t.typ(root)] {
		if t.typ(root) != ty {
			return name, "", false
		}
		if root = t.field(root, objField); root == nil {
			return name, "", false
		}
	}
	if t.quals[t.text(root)] {
		qual = strings.Join(strings.Fields(t.text(obj)), "")
	}
	return name, qual, true
}
