package library

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/ingest/code"
	"github.com/loomwork/loom/backend/model"
)

// The symbol graph of source code: a definition calls or names others
// (calls edges), a type implements an interface or extends a base
// (implements edges), a file imports others (imports edges between file
// nodes). A name is resolved within the file's collection and language,
// nearest first — the same file, the same folder (a Go package), the
// files the file imports, then the one definition of that name anywhere —
// and a name that stays ambiguous makes no edge. Edges point at node ids
// that stay the same while the definition exists (model.CodeNodeID), so
// an edit of the callee's file keeps its callers' edges.

// Bounds on the edges one node makes.
const (
	maxSymbolEdges = 32 // calls and implements edges of one definition
	maxAmbiguous   = 3  // a name of more definitions than this makes no edge
	maxImportFiles = 8  // files of one imported package linked to
)

// symDef is one definition the table knows.
type symDef struct {
	id      string // the node id of its first part
	path    string // the file's reference path
	name    string // "Library.link"
	kind    string
	methods []string
}

// symFile is one source file the table knows.
type symFile struct {
	path string
	node string // its file node's id
}

// symbolTable knows the definitions of source code in the workspace and
// in an ingest run, by collection and language.
type symbolTable struct {
	// known are the names (collection·lang·simple name) of the definitions
	// the workspace held before the run, fresh the run's definitions
	// whose name is not among them, by id.
	known map[string]bool
	fresh map[string]freshDef
	// pending are other files' edges to the run's fresh definitions, by
	// the id of the document that defines them (see addPending).
	pending map[string][]model.Edge
	// runNodes are the run's definitions and files, by node id: the id of
	// the document that holds each.
	runNodes map[string]string
	byName   map[string][]symDef        // collection·lang·name → definitions (by simple and full name)
	files    map[string][]symFile       // collection·lang → files
	methods  map[string]map[string]bool // collection·lang·dir·type → its methods' names
	ifaces   map[string][]symDef        // collection·lang → interfaces with methods
}

func tableKey(parts ...string) string { return strings.Join(parts, "\x00") }

// langFamily groups languages that call each other's definitions.
func langFamily(lang string) string {
	switch lang {
	case "typescript", "tsx", "javascript":
		return "js"
	case "c", "cpp":
		return "c"
	}
	return lang
}

// simpleName is the last part of a qualified name ("Library.link" →
// "link").
func simpleName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// newSymbolTable makes the table of the index's code documents, less
// those the run replaces, plus the run's.
func newSymbolTable(ix *index.Graph, run []ingest.Document) *symbolTable {
	t := &symbolTable{byName: map[string][]symDef{}, files: map[string][]symFile{},
		methods: map[string]map[string]bool{}, ifaces: map[string][]symDef{},
		known: map[string]bool{}, fresh: map[string]freshDef{}, pending: map[string][]model.Edge{}, runNodes: map[string]string{}}
	replaced := map[string]bool{}
	for _, d := range run {
		replaced[model.DocumentID(d.Collection, d.Path)] = true
	}
	for docID, d := range ix.Docs {
		if d.Meta.Language == "" {
			continue
		}
		fam := langFamily(d.Meta.Language)
		for _, nid := range ix.DocNodes[docID] {
			n := ix.Nodes[nid]
			if n == nil || n.Symbol == nil || n.Part > 1 || n.Kind != model.KindInput {
				continue
			}
			t.known[tableKey(d.Collection, fam, simpleName(n.Symbol.Name))] = true
			if !replaced[docID] {
				t.add(d.Collection, fam, d.Path, n.ID, *n.Symbol)
			}
		}
	}
	for _, d := range run {
		if d.Code == nil {
			continue
		}
		docID := model.DocumentID(d.Collection, d.Path)
		fam := langFamily(string(d.Code.Lang))
		for _, s := range d.Sections {
			if s.Code == nil || s.Part > 1 {
				continue
			}
			id := model.CodeNodeID(docID, s.Ref, s.Part)
			t.runNodes[id] = docID
			t.add(d.Collection, fam, d.Path, id, s.Code.Symbol)
			if k := s.Code.Symbol.Kind; k != "file" && !t.known[tableKey(d.Collection, fam, simpleName(s.Code.Symbol.Name))] {
				t.fresh[id] = freshDef{name: simpleName(s.Code.Symbol.Name), doc: docID}
			}
		}
	}
	// One order, whatever the order the documents came in (a map's, or
	// the ingest's): which of an imported package's files an import links
	// to, and which definitions a name reaches, do not change from one
	// ingest of the same files to the next.
	for _, ds := range t.byName {
		slices.SortFunc(ds, bySymDef)
	}
	for _, ds := range t.ifaces {
		slices.SortFunc(ds, bySymDef)
	}
	for _, fs := range t.files {
		slices.SortFunc(fs, func(a, b symFile) int {
			return cmp.Or(strings.Compare(a.path, b.path), strings.Compare(a.node, b.node))
		})
	}
	return t
}

func bySymDef(a, b symDef) int {
	return cmp.Or(strings.Compare(a.path, b.path), strings.Compare(a.id, b.id))
}

// freshDef is a definition of the run whose name the workspace did not
// know: its simple name and its document's id.
type freshDef struct{ name, doc string }

// freshNames are the simple names of the run's fresh definitions.
func (t *symbolTable) freshNames() []string {
	var out []string
	for _, f := range t.fresh {
		out = append(out, f.name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// addPending takes a file the run leaves unread (unchanged) and keeps its
// edges to the run's fresh definitions: a name it uses that resolved to
// nothing when it was indexed may name one of them now. They are written
// with the document that defines them (pending), since the unread file's
// own nodes are not written again.
func (t *symbolTable) addPending(ix *index.Graph, d *ingest.Document, now time.Time) {
	if d.Code == nil {
		return
	}
	docID := model.DocumentID(d.Collection, d.Path)
	nodes := make([]model.ContentNode, len(d.Sections))
	for j, s := range d.Sections {
		nodes[j].ID = model.CodeNodeID(docID, s.Ref, s.Part)
	}
	for _, e := range t.symbolEdges(d, nodes, now) {
		f, ok := t.fresh[e.To]
		if !ok || ix.Nodes[e.From] == nil {
			continue // not new, or a node the index does not have
		}
		t.pending[f.doc] = append(t.pending[f.doc], e)
	}
}

func (t *symbolTable) add(collection, fam, file, id string, sym model.Symbol) {
	if sym.Kind == "file" {
		k := tableKey(collection, fam)
		t.files[k] = append(t.files[k], symFile{path: file, node: id})
		return
	}
	d := symDef{id: id, path: file, name: sym.Name, kind: sym.Kind, methods: sym.Methods}
	k := tableKey(collection, fam, simpleName(sym.Name))
	t.byName[k] = append(t.byName[k], d)
	if full := tableKey(collection, fam, sym.Name); sym.Name != simpleName(sym.Name) {
		t.byName[full] = append(t.byName[full], d)
	}
	if recv, m, ok := strings.Cut(sym.Name, "."); ok && !strings.Contains(m, ".") {
		mk := tableKey(collection, fam, path.Dir(file), recv)
		if t.methods[mk] == nil {
			t.methods[mk] = map[string]bool{}
		}
		t.methods[mk][m] = true
	}
	if (sym.Kind == "interface" || sym.Kind == "trait") && len(sym.Methods) > 0 {
		ik := tableKey(collection, fam)
		t.ifaces[ik] = append(t.ifaces[ik], d)
	}
}

// scope is where a file's names are looked up: the file, its folder and
// what it imports.
type scope struct {
	collection, fam, file, dir string
	imports                    []imported
}

// imported is one import of a file, resolved to the files it names.
type imported struct {
	alias string
	files map[string]bool // file paths in the collection
	nodes []string        // their file nodes
}

// scopeOf resolves a file's imports against the table's files.
func (t *symbolTable) scopeOf(d *ingest.Document) *scope {
	fam := langFamily(string(d.Code.Lang))
	sc := &scope{collection: d.Collection, fam: fam, file: d.Path, dir: path.Dir(d.Path)}
	files := t.files[tableKey(d.Collection, fam)]
	for _, im := range d.Code.Imports {
		want := importPath(string(d.Code.Lang), d.Path, im.Path)
		if want == "" {
			continue
		}
		got := imported{alias: im.Name, files: map[string]bool{}}
		if got.alias == "" {
			got.alias = importAlias(im.Path)
		}
		for _, f := range files {
			if f.path == d.Path {
				continue
			}
			stem := strings.TrimSuffix(f.path, path.Ext(f.path))
			dir := path.Dir(f.path)
			if pathSuffix(want, stem) || pathSuffix(want, dir) || (path.Base(stem) == "index" || path.Base(stem) == "__init__" || path.Base(stem) == "mod") && pathSuffix(want, dir) {
				got.files[f.path] = true
				if len(got.nodes) < maxImportFiles {
					got.nodes = append(got.nodes, f.node)
				}
			}
		}
		if len(got.files) > 0 {
			sc.imports = append(sc.imports, got)
		}
	}
	return sc
}

// pathSuffix reports whether have names the place want points at: want
// ends with have, on a boundary of path elements.
func pathSuffix(want, have string) bool {
	if have == "" || have == "." {
		return false
	}
	return want == have || strings.HasSuffix(want, "/"+have)
}

// importPath is an import as a slash path to compare with the files'
// paths: Go's import path, a Python module ("a.b" → "a/b"), a JavaScript
// specifier resolved against the importing file's folder, a Rust path
// ("crate::a::b" → "a/b"), a Java class, a C header without extension.
func importPath(lang, from, imp string) string {
	imp = strings.Trim(imp, `"'<> `)
	switch lang {
	case "go":
		return imp
	case "python":
		lead := len(imp) - len(strings.TrimLeft(imp, "."))
		rest := strings.ReplaceAll(imp[lead:], ".", "/")
		if lead == 0 {
			return rest
		}
		base := path.Dir(from)
		for range lead - 1 {
			base = path.Dir(base)
		}
		return path.Join(base, rest)
	case "javascript", "typescript", "tsx":
		if !strings.HasPrefix(imp, ".") {
			return "" // a package from the registry
		}
		p := path.Join(path.Dir(from), imp)
		return strings.TrimSuffix(p, path.Ext(p))
	case "rust":
		imp = strings.TrimPrefix(strings.TrimPrefix(imp, "crate::"), "super::")
		return strings.ReplaceAll(imp, "::", "/")
	case "java":
		return strings.ReplaceAll(imp, ".", "/")
	case "c", "cpp":
		return strings.TrimSuffix(imp, path.Ext(imp))
	}
	return imp
}

// importAlias is the name an import is used by when no alias is given:
// the last element of its path.
func importAlias(imp string) string {
	imp = strings.Trim(imp, `"'<> `)
	for _, sep := range []string{"::", ".", "/"} {
		if i := strings.LastIndex(imp, sep); i >= 0 && i+len(sep) < len(imp) {
			imp = imp[i+len(sep):]
		}
	}
	return imp
}

// resolve finds the definitions a name in a file means, nearest first;
// none when it stays ambiguous.
func (t *symbolTable) resolve(sc *scope, self string, r code.Ref) []symDef {
	if len(r.Name) < 2 {
		return nil
	}
	all := t.byName[tableKey(sc.collection, sc.fam, r.Name)]
	if len(all) == 0 {
		return nil
	}
	pick := func(keep func(symDef) bool) []symDef {
		var out []symDef
		for _, d := range all {
			if d.id != self && keep(d) {
				out = append(out, d)
			}
		}
		return out
	}
	var tiers [][]symDef
	if r.Qual != "" {
		for _, im := range sc.imports {
			if im.alias == r.Qual {
				tiers = append(tiers, pick(func(d symDef) bool { return im.files[d.path] }))
			}
		}
	} else {
		tiers = append(tiers,
			pick(func(d symDef) bool { return d.path == sc.file }),
			pick(func(d symDef) bool { return path.Dir(d.path) == sc.dir }),
			pick(func(d symDef) bool {
				for _, im := range sc.imports {
					if im.files[d.path] {
						return true
					}
				}
				return false
			}),
			pick(func(symDef) bool { return true }),
		)
	}
	for i, tier := range tiers {
		if len(tier) == 0 {
			continue
		}
		last := i == len(tiers)-1 && r.Qual == ""
		if len(tier) > maxAmbiguous || last && len(tier) > 1 {
			return nil
		}
		return tier
	}
	return nil
}

// symbolEdges are the symbol graph's edges of one document's nodes.
func (t *symbolTable) symbolEdges(d *ingest.Document, nodes []model.ContentNode, now time.Time) []model.Edge {
	if d.Code == nil || t == nil {
		return nil
	}
	sc := t.scopeOf(d)
	var out []model.Edge
	for j, s := range d.Sections {
		if s.Code == nil || s.Part > 1 || j >= len(nodes) {
			continue
		}
		from := nodes[j].ID
		if s.Code.Symbol.Kind == "file" {
			seen := map[string]bool{}
			for _, im := range sc.imports {
				for _, to := range im.nodes {
					if !seen[to] && to != from {
						seen[to] = true
						out = append(out, model.Edge{Kind: model.EdgeImports, From: from, To: to, Weight: 1, Created: now})
					}
				}
			}
			continue
		}
		seen := map[string]bool{}
		n := 0
		add := func(kind model.EdgeKind, to string) {
			if n < maxSymbolEdges && !seen[to] && to != from {
				seen[to] = true
				n++
				out = append(out, model.Edge{Kind: kind, From: from, To: to, Weight: 1, Created: now})
			}
		}
		for _, b := range s.Code.Bases {
			for _, def := range t.resolve(sc, from, baseRef(b)) {
				add(model.EdgeImplements, def.id)
			}
		}
		if d.Code.Lang == "go" {
			for _, def := range t.implemented(sc, s.Code.Symbol) {
				add(model.EdgeImplements, def.id)
			}
		}
		for _, r := range s.Code.Refs {
			for _, def := range t.resolve(sc, from, r) {
				add(model.EdgeCalls, def.id)
			}
		}
	}
	return out
}

// baseRef is a base type as written ("io.Reader", "Base[T]", "*Node")
// as a name to resolve.
func baseRef(b string) code.Ref {
	b = strings.TrimLeft(strings.TrimSpace(b), "*&")
	if i := strings.IndexAny(b, "[<("); i >= 0 {
		b = b[:i]
	}
	if q, n, ok := strings.Cut(b, "."); ok && !strings.Contains(n, ".") {
		return code.Ref{Name: n, Qual: q}
	}
	return code.Ref{Name: simpleName(strings.ReplaceAll(b, "::", "."))}
}

// implemented lists the Go interfaces of the collection whose methods a
// type has (Go's implicit interfaces), the nearest first, a few at most.
func (t *symbolTable) implemented(sc *scope, sym model.Symbol) []symDef {
	switch sym.Kind {
	case "struct", "type":
	default:
		return nil
	}
	have := t.methods[tableKey(sc.collection, sc.fam, sc.dir, sym.Name)]
	if len(have) == 0 {
		return nil
	}
	var out []symDef
	for _, iface := range t.ifaces[tableKey(sc.collection, sc.fam)] {
		if len(iface.methods) > len(have) {
			continue
		}
		all := true
		for _, m := range iface.methods {
			if !have[m] {
				all = false
				break
			}
		}
		if all {
			out = append(out, iface)
		}
	}
	slices.SortStableFunc(out, func(a, b symDef) int {
		return len(b.methods) - len(a.methods) // the most specific first
	})
	return out[:min(len(out), maxAmbiguous)]
}

// incomingSymbolEdges are the symbol graph's edges of other documents'
// nodes to the given nodes of document docID, as the index holds them.
func incomingSymbolEdges(ix *index.Graph, docID string, nodes []model.ContentNode) []model.Edge {
	var out []model.Edge
	for _, n := range nodes {
		seen := map[string]bool{}
		for _, from := range ix.SymbolIn[n.ID] {
			src := ix.Nodes[from]
			if seen[from] || src == nil || src.DocID == docID {
				continue
			}
			seen[from] = true
			for _, e := range ix.Out[from] {
				if e.To == n.ID && e.Kind.SymbolEdge() {
					out = append(out, e)
				}
			}
		}
	}
	return out
}
