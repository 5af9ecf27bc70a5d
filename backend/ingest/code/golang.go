package code

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"
)

// goBuiltins are the universe scope's names: never references.
var goBuiltins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`bool byte complex64 complex128 error float32 float64 int int8
		int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable
		true false iota nil append cap clear close complex copy delete imag len make max min
		new panic print println real recover`) {
		goBuiltins[n] = true
	}
}

// goFile is the state of reading one Go file.
type goFile struct {
	src   []byte
	tf    *token.File
	f     *File
	pkgs  map[string]bool // import names usable as qualifiers
	types map[string]int  // type name → index in f.Defs
	// comments are the file's comments, in order (af.Comments).
	comments []*ast.CommentGroup
}

// maxGoSegments bounds how often a broken Go file is parsed again past an
// error.
const maxGoSegments = maxProblems

// parseGo reads a Go file with go/parser. go/parser's partial AST often
// swallows the rest of the file into a declaration with an unbalanced
// brace, so past the first error the file is parsed again from the next
// top-level declaration (a line starting with func, type, var, const or
// import, with its doc comment), up to maxGoSegments times.
func parseGo(filename string, src []byte) *File {
	f := &File{Lang: Go}
	pkgs, types := map[string]bool{}, map[string]int{}
	seg := src
	for n := 0; ; n++ {
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, filename, seg, parser.ParseComments|parser.SkipObjectResolution)
		errLine := 0
		if err != nil {
			f.Partial = true
			if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
				errLine = list[0].Pos.Line
			} else {
				errLine = 1
			}
		}
		resume, from := 0, errLine
		if errLine > 0 && n+1 < maxGoSegments {
			// resume past the declaration that holds the error
			if af != nil {
				if tf := fset.File(af.Package); tf != nil {
					for _, d := range af.Decls {
						if l := tf.PositionFor(d.Pos(), false).Line; l <= errLine {
							from = l
						}
					}
				}
			}
			resume = goResumeLine(src, from)
		}
		if err != nil {
			if list, ok := err.(scanner.ErrorList); ok {
				kept := 0
				for _, e := range list {
					if resume == 0 || e.Pos.Line < resume {
						f.Problems = append(f.Problems, problem(e.Pos.Line, e.Msg))
						kept++
					}
				}
				if kept == 0 { // the error shows only where the file ends
					f.Problems = append(f.Problems, problem(from, fmt.Sprintf("this declaration does not end (line %d: %s)", list[0].Pos.Line, list[0].Msg)))
				}
			} else {
				f.Problems = append(f.Problems, problem(1, err.Error()))
			}
		}
		if af != nil {
			if g := (&goFile{src: seg, tf: fset.File(af.Package), f: f, pkgs: pkgs, types: types, comments: af.Comments}); g.tf != nil {
				g.file(af, n == 0, resume)
			}
		}
		if resume == 0 {
			break
		}
		// the next segment keeps the lines where they were: a package clause,
		// then empty lines up to the resumed declaration
		off := lineOffset(src, resume)
		next := make([]byte, 0, len(src)-off+resume+16)
		next = append(next, "package p"...)
		for range resume - 1 {
			next = append(next, '\n')
		}
		seg = append(next, src[off:]...)
	}
	for i := range f.Defs {
		if d := &f.Defs[i]; d.Kind == "method" {
			recv, _, _ := strings.Cut(d.Name, ".")
			if p, ok := types[recv]; ok {
				d.Parent = p
			}
		}
	}
	return f
}

// file adds what one parse of the file yields. When reading resumes at a
// later line, only the declarations that start before it are taken, and
// none ends past it.
func (g *goFile) file(af *ast.File, first bool, resume int) {
	f := g.f
	if first {
		if af.Name != nil {
			f.Package = af.Name.Name
		}
		f.Doc = g.comment(af.Doc)
		f.Generated = ast.IsGenerated(af)
		for _, spec := range af.Imports {
			g.importSpec(spec)
		}
	}
	from := len(f.Defs)
	for _, decl := range af.Decls {
		if resume > 0 && g.line(decl.Pos()) >= resume {
			break
		}
		switch d := decl.(type) {
		case *ast.FuncDecl:
			g.funcDecl(d)
		case *ast.GenDecl:
			g.genDecl(d)
		}
	}
	last := resume - 1 // where a declaration broken off ends
	if resume == 0 {
		last = bytes.Count(g.src, []byte("\n"))
		if !bytes.HasSuffix(g.src, []byte("\n")) {
			last++
		}
	}
	for i := from; i < len(f.Defs); i++ {
		if d := &f.Defs[i]; resume > 0 && d.LineEnd >= resume || d.LineEnd < d.LineStart {
			d.LineEnd = max(d.LineStart, g.lastCodeLine(last))
		}
	}
}

// goResumeLine is the first line after line after that starts a top-level
// declaration, its doc comment included; 0 if none.
func goResumeLine(src []byte, after int) int {
	line, doc := 1, 0
	for len(src) > 0 {
		text := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			text, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		if line > after {
			switch {
			case bytes.HasPrefix(text, []byte("//")):
				if doc == 0 {
					doc = line
				}
			case startsDecl(text):
				if doc > 0 {
					return doc
				}
				return line
			default:
				doc = 0
			}
		}
		line++
	}
	return 0
}

func startsDecl(line []byte) bool {
	for _, kw := range []string{"func ", "func(", "type ", "type(", "var ", "var(", "const ", "const(", "import "} {
		if bytes.HasPrefix(line, []byte(kw)) {
			return true
		}
	}
	return false
}

// lineOffset is the byte offset where 1-based line n starts.
func lineOffset(src []byte, n int) int {
	off := 0
	for l := 1; l < n; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return off
}

// lastCodeLine is the last line at or before n that is neither blank nor a
// comment.
func (g *goFile) lastCodeLine(n int) int {
	end := lineOffset(g.src, n+1) // just past line n
	for ; n > 1; n-- {
		start := 0
		if end > 0 {
			start = bytes.LastIndexByte(g.src[:end-1], '\n') + 1
		}
		text := bytes.TrimSpace(g.src[start:end])
		if len(text) > 0 && !bytes.HasPrefix(text, []byte("//")) {
			return n
		}
		end = start
	}
	return max(n, 1)
}

// line is pos's 1-based line, ignoring //line directives.
func (g *goFile) line(pos token.Pos) int {
	if !pos.IsValid() || int(pos) < g.tf.Base() || int(pos) > g.tf.Base()+g.tf.Size() {
		return 0
	}
	return g.tf.PositionFor(pos, false).Line
}

// offset is pos's byte offset in src, clamped to the file.
func (g *goFile) offset(pos token.Pos) int {
	return max(0, min(int(pos)-g.tf.Base(), len(g.src)))
}

// text is the source between two positions as written.
func (g *goFile) text(from, to token.Pos) string {
	return span(g.src, g.offset(from), g.offset(to))
}

func (g *goFile) node(n ast.Node) string { return g.text(n.Pos(), n.End()) }

// header is the source from one position to another without the comments
// inside it: on one line, a "// the text" after a parameter would read as
// the comment of everything that follows.
func (g *goFile) header(from, to token.Pos) string {
	var b strings.Builder
	at := from
	first := sort.Search(len(g.comments), func(i int) bool { return g.comments[i].End() > from })
	for _, cg := range g.comments[first:] {
		if cg.Pos() >= to {
			break
		}
		for _, c := range cg.List {
			if c.Pos() >= at && c.End() <= to {
				b.WriteString(g.text(at, c.Pos()))
				b.WriteByte(' ')
				at = c.End()
			}
		}
	}
	b.WriteString(g.text(at, to))
	return b.String()
}

func (g *goFile) comment(c *ast.CommentGroup) string {
	if c == nil {
		return ""
	}
	return g.node(c)
}

func (g *goFile) importSpec(spec *ast.ImportSpec) {
	p, err := strconv.Unquote(spec.Path.Value)
	if err != nil {
		p = strings.Trim(spec.Path.Value, "\"`")
	}
	imp := Import{Path: p, Line: g.line(spec.Pos())}
	name := goPackageName(p)
	if spec.Name != nil {
		imp.Name = spec.Name.Name
		name = spec.Name.Name
	}
	if name != "_" && name != "." && name != "" {
		g.pkgs[name] = true
	}
	g.f.Imports = append(g.f.Imports, imp)
}

// goPackageName guesses the name an unaliased import binds: the path's last
// element, less a major version element ("math/rand/v2" → "rand") or suffix
// ("gopkg.in/yaml.v3" → "yaml") and a "go-" prefix or "-go" suffix.
func goPackageName(p string) string {
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" && path.Dir(p) != "." {
		base = path.Base(path.Dir(p))
	}
	if i := strings.Index(base, ".v"); i > 0 && strings.Trim(base[i+2:], "0123456789") == "" {
		base = base[:i]
	}
	base = strings.TrimPrefix(base, "go-")
	base = strings.TrimSuffix(base, "-go")
	base = strings.TrimSuffix(base, ".go")
	return base
}

// start is where a declaration begins, its doc comment included.
func start(doc *ast.CommentGroup, pos token.Pos) token.Pos {
	if doc != nil && doc.Pos() < pos {
		return doc.Pos()
	}
	return pos
}

func (g *goFile) add(d Def) int {
	g.f.Defs = append(g.f.Defs, d)
	return len(g.f.Defs) - 1
}

func (g *goFile) funcDecl(d *ast.FuncDecl) int {
	def := Def{
		Kind:      "func",
		Name:      d.Name.Name,
		Doc:       g.comment(d.Doc),
		LineStart: g.line(start(d.Doc, d.Pos())),
		LineEnd:   g.line(d.End()),
		Parent:    -1,
		Exported:  ast.IsExported(d.Name.Name),
	}
	end := d.End()
	if d.Body != nil {
		end = d.Body.Lbrace
	}
	def.Signature = oneLine(g.header(d.Pos(), end))
	if d.Recv != nil && len(d.Recv.List) > 0 {
		def.Kind = "method"
		def.Name = receiverType(d.Recv.List[0].Type) + "." + d.Name.Name
	}
	r := g.newRefs(d)
	r.funcType(d.Type)
	if d.Body != nil {
		r.walk(d.Body)
	}
	def.Refs = r.set.refs
	return g.add(def)
}

// receiverType is a receiver's base type name: "Library" for *Library,
// List[T] and *List[K, V].
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return "?"
		}
	}
}

func (g *goFile) genDecl(d *ast.GenDecl) {
	switch d.Tok {
	case token.TYPE:
		for _, s := range d.Specs {
			if ts, ok := s.(*ast.TypeSpec); ok {
				g.typeSpec(d, ts)
			}
		}
	case token.CONST, token.VAR:
		g.valueDecl(d)
	}
}

func (g *goFile) typeSpec(d *ast.GenDecl, s *ast.TypeSpec) {
	def := Def{
		Kind:     "type",
		Name:     s.Name.Name,
		Parent:   -1,
		Exported: ast.IsExported(s.Name.Name),
	}
	doc, from, to := s.Doc, s.Pos(), s.End()
	if !d.Lparen.IsValid() { // type T …: the declaration is the spec
		doc, from, to = d.Doc, d.Pos(), d.End()
	} else if doc == nil && len(d.Specs) == 1 {
		doc = d.Doc
	}
	def.Doc = g.comment(doc)
	def.LineStart, def.LineEnd = g.line(start(doc, from)), g.line(to)
	r := g.newRefs(s) // its type parameters are no references
	if s.TypeParams != nil {
		r.fields(s.TypeParams)
	}
	header := "type " + g.text(s.Name.Pos(), s.Type.Pos())
	switch t := s.Type.(type) {
	case *ast.StructType:
		def.Kind = "struct"
		def.Signature = oneLine(header + "struct")
		for _, fl := range t.Fields.List {
			if len(fl.Names) == 0 {
				def.Bases = append(def.Bases, strings.TrimPrefix(g.node(fl.Type), "*"))
			}
		}
		r.fields(t.Fields)
	case *ast.InterfaceType:
		def.Kind = "interface"
		def.Signature = oneLine(header + "interface")
		for _, fl := range t.Methods.List {
			if len(fl.Names) > 0 {
				for _, n := range fl.Names {
					def.Methods = append(def.Methods, n.Name)
				}
				continue
			}
			switch fl.Type.(type) {
			case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr:
				def.Bases = append(def.Bases, g.node(fl.Type))
			}
		}
		r.fields(t.Methods)
	default:
		def.Signature = oneLine("type " + g.text(s.Name.Pos(), s.End()))
		r.typ(s.Type)
	}
	def.Refs = r.set.refs
	i := g.add(def)
	if _, dup := g.types[def.Name]; !dup {
		g.types[def.Name] = i
	}
}

// valueDecl makes one def of a const or var declaration, named by its first
// name.
func (g *goFile) valueDecl(d *ast.GenDecl) {
	var first *ast.ValueSpec
	for _, s := range d.Specs {
		if vs, ok := s.(*ast.ValueSpec); ok && len(vs.Names) > 0 {
			first = vs
			break
		}
	}
	if first == nil {
		return
	}
	doc := d.Doc
	if doc == nil && d.Lparen.IsValid() {
		doc = first.Doc
	}
	def := Def{
		Kind:      d.Tok.String(),
		Name:      first.Names[0].Name,
		Doc:       g.comment(doc),
		LineStart: g.line(start(doc, d.Pos())),
		LineEnd:   g.line(d.End()),
		Parent:    -1,
		Exported:  ast.IsExported(first.Names[0].Name),
	}
	if !d.Lparen.IsValid() {
		def.Signature = oneLine(firstLine(g.node(d)))
	} else {
		specs := make([]string, 0, len(d.Specs))
		for _, s := range d.Specs {
			specs = append(specs, firstLine(g.node(s)))
			if len(specs) > 8 {
				specs = append(specs, "…")
				break
			}
		}
		def.Signature = oneLine(d.Tok.String() + " ( " + strings.Join(specs, "; ") + " )")
	}
	r := g.newRefs(d) // nor are the parameters and locals of function values
	for _, s := range d.Specs {
		if vs, ok := s.(*ast.ValueSpec); ok {
			if vs.Type != nil {
				r.typ(vs.Type)
			}
			for _, v := range vs.Values {
				r.walk(v)
			}
		}
	}
	def.Refs = r.set.refs
	g.add(def)
}
