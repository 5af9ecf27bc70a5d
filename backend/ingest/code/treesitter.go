//go:build cgo && !js

package code

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// Supported lists the languages this build parses into definitions.
func Supported() []Lang {
	return []Lang{Go, Python, JavaScript, TypeScript, TSX, Rust, Java, C, CPP}
}

// grammar is one tree-sitter language with what reads its trees.
type grammar struct {
	load    func() *sitter.Language
	extract func(*tsFile)
	// refs visits one node of a definition's subtree, recording the
	// references it makes; it returns whether to walk the node's children.
	refs func(t *tsFile, r *refSet, n *sitter.Node) bool
	// builtins are names never recorded as references.
	builtins map[string]bool

	once     sync.Once
	language *sitter.Language
	types    []string // node type by symbol
	parsers  sync.Pool
}

var grammars = map[Lang]*grammar{
	Python:     {load: python.GetLanguage, extract: extractPython, refs: pythonRefs, builtins: words(pythonBuiltins)},
	JavaScript: {load: javascript.GetLanguage, extract: extractJS, refs: jsRefs, builtins: words(jsBuiltins)},
	TypeScript: {load: typescript.GetLanguage, extract: extractJS, refs: jsRefs, builtins: words(jsBuiltins)},
	TSX:        {load: tsx.GetLanguage, extract: extractJS, refs: jsRefs, builtins: words(jsBuiltins)},
	Rust:       {load: rust.GetLanguage, extract: extractRust, refs: rustRefs, builtins: words(rustBuiltins)},
	Java:       {load: java.GetLanguage, extract: extractJava, refs: javaRefs, builtins: words(javaBuiltins)},
	C:          {load: c.GetLanguage, extract: extractC, refs: cRefs, builtins: words(cBuiltins)},
	CPP:        {load: cpp.GetLanguage, extract: extractC, refs: cRefs, builtins: words(cBuiltins)},
}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

func (g *grammar) init() {
	g.once.Do(func() {
		g.language = g.load()
		n := g.language.SymbolCount()
		g.types = make([]string, n)
		for s := range n {
			g.types[s] = g.language.SymbolName(sitter.Symbol(s))
		}
		g.parsers.New = func() any {
			p := sitter.NewParser()
			p.SetLanguage(g.language)
			return p
		}
	})
}

// tsFile is the state of reading one file's tree.
type tsFile struct {
	g    *grammar
	lang Lang
	path string
	src  []byte
	f    *File
	root *sitter.Node
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
	known   map[string]bool
	cursors []*sitter.TreeCursor // free ones, see cursor
	// private marks methods that stay unexported in an exported class.
	private map[int]bool
}

// refWork are a definition's nodes: the first is walked even when it is
// skipped within its parent's; extra are walked under the skip rules.
// locals are names declared around the definition: type parameters.
type refWork struct {
	nodes, extra []*sitter.Node
	locals       []string
}

// nodeKey identifies a node of the tree being read: its subtree's address,
// read without a cgo call.
type nodeKey uintptr

func key(n *sitter.Node) nodeKey {
	if n == nil {
		return 0
	}
	return nodeKey(n.ID())
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
	g.init()
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

// parseSegment parses src once. resume is the line to parse again from
// when a top-level ERROR node runs over several lines, 0 otherwise.
func parseSegment(g *grammar, lang Lang, path string, src []byte, again bool, quals, known map[string]bool) (*File, int, error) {
	p := g.parsers.Get().(*sitter.Parser)
	defer g.parsers.Put(p)
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		p.Reset()
		return nil, 0, fmt.Errorf("the %s parser gave up on %s (%v): read it as text", lang.title(), path, err)
	}
	defer tree.Close()
	root := tree.RootNode()
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
	for _, c := range t.cursors {
		c.Close()
	}
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

// typ is a node's type name, without the allocation Node.Type makes.
func (t *tsFile) typ(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	s := int(n.Symbol())
	if s < len(t.g.types) {
		return t.g.types[s]
	}
	return "ERROR"
}

func (t *tsFile) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return span(t.src, int(n.StartByte()), int(n.EndByte()))
}

func lineOf(n *sitter.Node) int { return int(n.StartPoint().Row) + 1 }

// endLine is the last line a node covers: a node that ends at the start of
// a line (its text ends with the new line) ends on the line before.
func endLine(n *sitter.Node) int {
	e := n.EndPoint()
	if e.Column == 0 && e.Row > n.StartPoint().Row {
		return int(e.Row)
	}
	return int(e.Row) + 1
}

// child is a node's child with its field name.
type child struct {
	n     *sitter.Node
	field string
}

// children lists a node's children through a cursor: Node.Child is linear
// in the index, so a loop over it would be quadratic on a wide node.
func (t *tsFile) children(n *sitter.Node) []child {
	if n == nil {
		return nil
	}
	c := t.cursor(n)
	defer t.release(c)
	if !c.GoToFirstChild() {
		return nil
	}
	var out []child
	for {
		out = append(out, child{c.CurrentNode(), c.CurrentFieldName()})
		if !c.GoToNextSibling() {
			return out
		}
	}
}

// cursor is a tree cursor on n, reused across walks: making one costs a
// finalizer.
func (t *tsFile) cursor(n *sitter.Node) *sitter.TreeCursor {
	if k := len(t.cursors); k > 0 {
		c := t.cursors[k-1]
		t.cursors = t.cursors[:k-1]
		c.Reset(n)
		return c
	}
	return sitter.NewTreeCursor(n)
}

func (t *tsFile) release(c *sitter.TreeCursor) { t.cursors = append(t.cursors, c) }

// field is the child with the given field name; unlike ChildByFieldName
// alone it never answers with a comment.
func (t *tsFile) field(n *sitter.Node, name string) *sitter.Node {
	if n == nil {
		return nil
	}
	f := n.ChildByFieldName(name)
	if f == nil || t.typ(f) != "comment" {
		return f
	}
	for _, c := range t.children(n) {
		if c.field == name && t.typ(c.n) != "comment" {
			return c.n
		}
	}
	return nil
}

// ofType is the first child of one of the given types.
func (t *tsFile) ofType(n *sitter.Node, types ...string) *sitter.Node {
	for _, c := range t.children(n) {
		for _, ty := range types {
			if t.typ(c.n) == ty {
				return c.n
			}
		}
	}
	return nil
}

// walk visits n and its descendants in source order; visit returns whether
// to go into a node's children. It keeps one cursor for the whole walk, so
// it is linear in the size of the tree and does not recurse.
func (t *tsFile) walk(n *sitter.Node, visit func(*sitter.Node) bool) {
	if n == nil || !visit(n) {
		return
	}
	c := t.cursor(n)
	defer t.release(c)
	if !c.GoToFirstChild() {
		return
	}
	depth := 1
	for {
		if visit(c.CurrentNode()) && c.GoToFirstChild() {
			depth++
			continue
		}
		for !c.GoToNextSibling() {
			if depth--; depth == 0 || !c.GoToParent() {
				return
			}
		}
	}
}

// problems lists the ERROR and MISSING nodes as syntax errors.
func (t *tsFile) problems(root *sitter.Node) {
	t.walk(root, func(n *sitter.Node) bool {
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
func (t *tsFile) add(d Def, nodes ...*sitter.Node) int {
	t.f.Defs = append(t.f.Defs, d)
	t.pending = append(t.pending, refWork{nodes: nodes})
	return len(t.f.Defs) - 1
}

// header is a declaration's text before its body on one line: up to the
// end of the last child before body that is not a comment.
func (t *tsFile) header(n, body *sitter.Node) string {
	return t.sig(n.StartByte(), t.headerEnd(n, body))
}

// headerEnd is where a declaration's header ends: at the end of its last
// child before body that is not a comment, or at its end without a body.
func (t *tsFile) headerEnd(n, body *sitter.Node) uint32 {
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
func (t *tsFile) typeParams(n *sitter.Node) []string {
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
func (t *tsFile) mention(r *refSet, n *sitter.Node) {
	if name := t.text(n); t.known[name] || t.quals[name] {
		t.use(r, name, "", false)
	}
}

// docComments gathers the comments (and attributes or decorators, which
// only move the start) right above a definition: comments is the run of
// pending siblings before it with no blank line between them and it.
func (t *tsFile) docComments(pending []*sitter.Node, decl *sitter.Node, isDoc func(*sitter.Node) bool) (doc string, startLine int) {
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
func (t *tsFile) walkRefs(r *refSet, n *sitter.Node) {
	t.walk(n, func(n *sitter.Node) bool {
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
func (t *tsFile) dotted(n *sitter.Node, objField, nameField string) (name, qual string, ok bool) {
	var obj, nm *sitter.Node
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
