package code

import (
	"regexp"
	"slices"
	"strings"
)

// pythonBuiltins are the builtins module's functions and types, never
// references.
const pythonBuiltins = `abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
	classmethod compile complex delattr dict dir divmod enumerate eval exec filter float format
	frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len
	list locals map max memoryview min next object oct open ord pow print property range repr
	reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip
	self cls None True False NotImplemented Ellipsis __name__ __file__`

// pythonConst is the name of a module-level constant: UPPER_CASE.
var pythonConst = regexp.MustCompile(`^_*[A-Z][A-Z0-9_]*$`)

// extractPython reads a module: functions, classes and their methods
// (nested classes too), and UPPER_CASE constants; definitions under a
// module-level if or try count as well.
func extractPython(t *tsFile) {
	root := t.root
	if doc := t.pyDocstring(root); doc != "" {
		t.f.Doc = doc
	}
	t.pyBlock(root, -1, "")
}

// pyBlock reads the statements of a module or class body. A function's
// @overload stubs before its implementation in the same body are part of
// the implementation's definition (its lines start at the first stub), so
// that a name is one definition, the one a person reads.
func (t *tsFile) pyBlock(block *node, parent int, prefix string) {
	children := t.children(block)
	stubs := t.pyOverloads(children)
	for _, c := range children {
		n, outer := c.n, c.n
		if t.typ(n) == "decorated_definition" {
			n = t.field(n, "definition")
			if n == nil {
				continue
			}
		}
		switch t.typ(n) {
		case "function_definition":
			if name := t.field(n, "name"); name != nil {
				if s, ok := stubs[t.text(name)]; ok {
					if slices.Contains(s.nodes, outer) {
						continue // a stub: read with its implementation
					}
					if s.impl == outer {
						t.pyFunc(n, outer, parent, prefix, s.nodes...)
						continue
					}
				}
			}
			t.pyFunc(n, outer, parent, prefix)
		case "class_definition":
			t.pyClass(n, outer, parent, prefix)
		case "expression_statement":
			if parent == -1 {
				t.pyConst(n)
			}
		case "import_statement", "import_from_statement", "future_import_statement":
			if parent == -1 {
				t.pyImport(n)
			}
		case "block":
			if parent == -1 { // the body of an else, elif, except or finally clause
				t.pyBlock(n, parent, prefix)
			}
		case "if_statement", "try_statement", "else_clause", "elif_clause", "except_clause", "finally_clause", "with_statement":
			if parent == -1 { // conditional definitions: if TYPE_CHECKING, try: import …
				for _, b := range t.children(n) {
					if ty := t.typ(b.n); ty == "block" || strings.HasSuffix(ty, "_clause") {
						t.pyBlock(b.n, parent, prefix)
					}
				}
			}
		}
	}
}

// overloads are a function's @overload stubs (nodes, decorated) and the
// implementation that follows them (impl).
type overloads struct {
	nodes []*node
	impl  *node
}

// pyOverloads finds, among a body's statements, the functions with
// @overload stubs followed by an implementation, by name. Stubs with no
// implementation after them (a .pyi file, a Protocol) stay definitions of
// their own.
func (t *tsFile) pyOverloads(children []child) map[string]overloads {
	var out map[string]overloads
	var pending map[string][]*node
	for _, c := range children {
		if t.typ(c.n) != "decorated_definition" && t.typ(c.n) != "function_definition" {
			continue
		}
		fn := c.n
		if t.typ(fn) == "decorated_definition" {
			if fn = t.field(c.n, "definition"); fn == nil || t.typ(fn) != "function_definition" {
				continue
			}
		}
		name := t.field(fn, "name")
		if name == nil {
			continue
		}
		if t.pyOverload(c.n) {
			if pending == nil {
				pending = map[string][]*node{}
			}
			pending[t.text(name)] = append(pending[t.text(name)], c.n)
			continue
		}
		if s := pending[t.text(name)]; len(s) > 0 {
			if out == nil {
				out = map[string]overloads{}
			}
			out[t.text(name)] = overloads{nodes: s, impl: c.n}
			delete(pending, t.text(name))
		}
	}
	return out
}

// pyOverload reports whether a decorated definition is decorated with
// typing's @overload.
func (t *tsFile) pyOverload(n *node) bool {
	if t.typ(n) != "decorated_definition" {
		return false
	}
	for _, c := range t.children(n) {
		if t.typ(c.n) != "decorator" {
			continue
		}
		switch strings.TrimSpace(strings.TrimPrefix(t.text(c.n), "@")) {
		case "overload", "typing.overload", "t.overload", "typing_extensions.overload":
			return true
		}
	}
	return false
}

func pyExported(name string) bool {
	return !strings.HasPrefix(name, "_") || (strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") && len(name) > 4)
}

// pyDocstring is the string literal first in a module's or body's
// statements, as written.
func (t *tsFile) pyDocstring(body *node) string {
	for _, c := range t.children(body) {
		switch t.typ(c.n) {
		case "comment":
			continue
		case "expression_statement":
			cs := t.children(c.n)
			if len(cs) == 1 && t.typ(cs[0].n) == "string" {
				return t.text(cs[0].n)
			}
		}
		return ""
	}
	return ""
}

// pyFunc reads a function or method; stubs are its @overload stubs before
// it, whose lines and references it takes in.
func (t *tsFile) pyFunc(n, outer *node, parent int, prefix string, stubs ...*node) int {
	name := t.field(n, "name")
	body := t.ofType(n, "block")
	if name == nil {
		return -1
	}
	d := Def{
		Kind:      "func",
		Name:      prefix + t.text(name),
		LineStart: lineOf(outer),
		LineEnd:   endLine(outer),
		Parent:    parent,
		Exported:  pyExported(t.text(name)),
	}
	if parent >= 0 && t.f.Defs[parent].Kind == "class" {
		d.Kind = "method"
	}
	if body != nil {
		d.Doc = t.pyDocstring(body)
	}
	d.Signature = t.header(n, body)
	t.skip[key(name)] = true
	if len(stubs) > 0 {
		d.LineStart = lineOf(stubs[0])
		for _, s := range stubs {
			if sn := t.field(s, "definition"); sn != nil {
				if nm := t.field(sn, "name"); nm != nil {
					t.skip[key(nm)] = true
				}
			}
		}
	}
	return t.add(d, append([]*node{outer}, stubs...)...)
}

func (t *tsFile) pyClass(n, outer *node, parent int, prefix string) {
	name := t.field(n, "name")
	body := t.ofType(n, "block")
	if name == nil {
		return
	}
	d := Def{
		Kind:      "class",
		Name:      prefix + t.text(name),
		LineStart: lineOf(outer),
		LineEnd:   endLine(outer),
		Parent:    parent,
		Exported:  pyExported(t.text(name)),
	}
	abstract := false
	if sup := t.field(n, "superclasses"); sup != nil {
		for _, c := range t.children(sup) {
			switch t.typ(c.n) {
			case "(", ")", ",", "comment":
			case "keyword_argument":
				if strings.Contains(t.text(c.n), "ABCMeta") {
					abstract = true
				}
			default:
				b := t.text(c.n)
				d.Bases = append(d.Bases, b)
				switch b {
				case "ABC", "abc.ABC", "Protocol", "typing.Protocol":
					abstract = true
				}
			}
		}
	}
	if body != nil {
		d.Doc = t.pyDocstring(body)
	}
	d.Signature = t.header(n, body)
	t.skip[key(name)] = true
	i := t.add(d, outer)
	if body == nil {
		return
	}
	first := len(t.f.Defs)
	t.pyBlock(body, i, d.Name+".")
	var methods []string
	for j := first; j < len(t.f.Defs); j++ {
		m := &t.f.Defs[j]
		if m.Parent != i || m.Kind != "method" {
			continue
		}
		methods = append(methods, strings.TrimPrefix(m.Name, d.Name+"."))
		if !abstract && strings.Contains(t.text(t.pending[j].nodes[0]), "abstractmethod") {
			abstract = true
		}
		t.skip[key(t.pending[j].nodes[0])] = true
	}
	for j := first; j < len(t.f.Defs); j++ { // nested classes
		if t.f.Defs[j].Parent == i {
			t.skip[key(t.pending[j].nodes[0])] = true
		}
	}
	if abstract {
		t.f.Defs[i].Methods = methods
	}
}

// pyConst reads NAME = value and NAME: T = value.
func (t *tsFile) pyConst(stmt *node) {
	a := t.ofType(stmt, "assignment")
	if a == nil {
		return
	}
	left := t.field(a, "left")
	if left == nil || t.typ(left) != "identifier" || !pythonConst.MatchString(t.text(left)) {
		return
	}
	if right := t.field(a, "right"); right != nil && t.typ(right) == "call" {
		switch fn := t.field(right, "function"); t.text(fn) {
		case "TypeVar", "typing.TypeVar", "ParamSpec", "typing.ParamSpec", "TypeVarTuple", "typing.TypeVarTuple":
			return // a type variable names no value: not a constant
		}
	}
	name := t.text(left)
	t.skip[key(left)] = true
	t.add(Def{
		Kind:      "const",
		Name:      name,
		Signature: oneLine(firstLine(t.text(stmt))),
		LineStart: lineOf(stmt),
		LineEnd:   endLine(stmt),
		Parent:    -1,
		Exported:  pyExported(name),
	}, stmt)
}

func (t *tsFile) pyImport(n *node) {
	line := lineOf(n)
	if t.typ(n) == "import_statement" {
		for _, c := range t.children(n) {
			if c.field != "name" {
				continue
			}
			switch t.typ(c.n) {
			case "dotted_name": // import a.b binds a
				p := t.text(c.n)
				t.f.Imports = append(t.f.Imports, Import{Path: p, Line: line})
				root, _, _ := strings.Cut(p, ".")
				t.quals[root] = true
			case "aliased_import":
				p, alias := t.text(t.field(c.n, "name")), t.text(t.field(c.n, "alias"))
				t.f.Imports = append(t.f.Imports, Import{Path: p, Name: alias, Line: line})
				t.quals[alias] = true
			}
		}
		return
	}
	// from a.b import c, d as e: one import of a.b; c and e are bindings
	mod := t.field(n, "module_name")
	if mod == nil {
		mod = t.ofType(n, "dotted_name", "relative_import")
	}
	if t.typ(n) == "future_import_statement" {
		t.f.Imports = append(t.f.Imports, Import{Path: "__future__", Line: line})
	} else if mod != nil {
		t.f.Imports = append(t.f.Imports, Import{Path: strings.Join(strings.Fields(t.text(mod)), ""), Line: line})
	}
	for _, c := range t.children(n) {
		if c.field != "name" {
			continue
		}
		switch t.typ(c.n) {
		case "dotted_name":
			t.quals[t.text(c.n)] = true
		case "aliased_import":
			t.quals[t.text(t.field(c.n, "alias"))] = true
		}
	}
}

// pythonRefs records calls, annotated types, class bases, and the
// module's own names and imports used as values.
func pythonRefs(t *tsFile, r *refSet, n *node) bool {
	switch t.typ(n) {
	case "call":
		fn := t.field(n, "function")
		t.pyCallee(r, fn)
		t.walkRefs(r, t.field(n, "arguments"))
		return false
	case "attribute":
		if name, qual, ok := t.dotted(n, "object", "attribute"); ok && qual != "" {
			t.use(r, name, qual, false)
			return false
		}
		t.walkRefs(r, t.field(n, "object"))
		return false
	case "function_definition", "class_definition":
		if name := t.field(n, "name"); name != nil {
			r.local(t.text(name))
		}
		for _, c := range t.children(n) {
			if c.field == "superclasses" {
				t.pyTypes(r, c.n)
			} else if c.field != "name" {
				t.walkRefs(r, c.n)
			}
		}
		return false
	case "type": // an annotation: every name in it is a type
		t.pyTypes(r, n)
		return false
	case "keyword_argument":
		t.walkRefs(r, t.field(n, "value"))
		return false
	case "identifier":
		t.mention(r, n)
		return false
	case "comment":
		return false
	}
	return true
}

// pyTypes records every name in an annotation or a class's bases.
func (t *tsFile) pyTypes(r *refSet, n *node) {
	t.walk(n, func(n *node) bool {
		switch t.typ(n) {
		case "identifier":
			t.use(r, t.text(n), "", false)
		case "attribute":
			if name, qual, ok := t.dotted(n, "object", "attribute"); ok {
				t.use(r, name, qual, false)
			}
			return false
		case "keyword_argument":
			t.pyTypes(r, t.field(n, "value"))
			return false
		case "string", "comment":
			return false
		}
		return true
	})
}

func (t *tsFile) pyCallee(r *refSet, fn *node) {
	if fn == nil {
		return
	}
	switch t.typ(fn) {
	case "identifier":
		t.use(r, t.text(fn), "", true)
	case "attribute":
		name, qual, _ := t.dotted(fn, "object", "attribute")
		if qual == "" {
			t.walkRefs(r, t.field(fn, "object"))
		}
		r.add(name, qual, true)
	default:
		t.walkRefs(r, fn)
	}
}
