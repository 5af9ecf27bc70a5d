package code

import (
	"strings"
)

// rustBuiltins are the prelude's types, traits and variants and the
// standard macros: never references.
const rustBuiltins = `Self self Option Some None Result Ok Err Vec String Box ToString ToOwned Clone Copy
	Default Drop Fn FnMut FnOnce Iterator IntoIterator Extend Send Sized Sync Unpin AsRef AsMut
	Into From TryFrom TryInto PartialEq Eq PartialOrd Ord Debug
	println print eprintln eprint format write writeln vec assert assert_eq assert_ne
	debug_assert debug_assert_eq debug_assert_ne panic todo unimplemented unreachable matches
	concat stringify include include_str include_bytes env option_env cfg line column file
	module_path dbg format_args compile_error`

// rustCrateRoots start paths that are qualifiers without a use.
var rustCrateRoots = []string{"std", "core", "alloc", "crate", "self", "super"}

// rustImpl is one impl block whose methods are tied to their type once the
// whole file is read: the type may be defined below the impl.
type rustImpl struct {
	typ, trait string
	methods    []int
}

// extractRust reads a crate file: functions, structs, unions, enums,
// traits, type aliases, consts, statics, macro_rules! macros, and the
// methods of impl blocks (named Type.method); inline modules are read with
// their name as a prefix.
func extractRust(t *tsFile) {
	for _, r := range rustCrateRoots {
		t.quals[r] = true
	}
	var impls []rustImpl
	t.rustItems(t.root, "", -1, &impls)
	types := map[string]int{}
	for i, d := range t.f.Defs {
		switch d.Kind {
		case "struct", "enum", "trait", "type":
			if _, dup := types[d.Name]; !dup {
				types[d.Name] = i
			}
		}
	}
	for _, im := range impls {
		ti, ok := types[im.typ]
		if !ok {
			continue
		}
		if im.trait != "" {
			t.f.Defs[ti].Bases = append(t.f.Defs[ti].Bases, im.trait)
		}
		for _, m := range im.methods {
			t.f.Defs[m].Parent = ti
		}
	}
}

// rustItems reads the items of a file, a module or a trait or impl body.
// owner is the impl's type or the trait's name for methods ("" at module
// level); parent the index of the trait.
func (t *tsFile) rustItems(block *node, owner string, parent int, impls *[]rustImpl) {
	var pending []*node
	var implMethods *[]int
	if len(*impls) > 0 && owner != "" && parent == -1 {
		implMethods = &(*impls)[len(*impls)-1].methods
	}
	for _, c := range t.children(block) {
		n := c.n
		ty := t.typ(n)
		switch ty {
		case "line_comment", "block_comment":
			if t.ofType(n, "inner_doc_comment_marker") != nil {
				if block == t.root && len(t.f.Defs) == 0 { // the crate's or module's own doc
					t.f.Doc = strings.TrimSpace(t.f.Doc + "\n" + strings.TrimRight(t.text(n), "\r\n"))
				}
				pending = pending[:0]
				continue
			}
			pending = append(pending, n)
			continue
		case "attribute_item":
			pending = append(pending, n)
			continue
		}
		doc, start := t.docComments(pending, n, func(p *node) bool { return t.typ(p) != "attribute_item" })
		pending = pending[:0]
		name := t.field(n, "name")
		pub := t.ofType(n, "visibility_modifier") != nil
		d := Def{
			Name:      t.text(name),
			Doc:       doc,
			LineStart: start,
			LineEnd:   endLine(n),
			Parent:    -1,
			Exported:  pub,
		}
		if name != nil {
			t.skip[key(name)] = true
		}
		body := t.field(n, "body")
		switch ty {
		case "function_item":
			d.Kind = "func"
			if owner != "" {
				d.Kind, d.Name, d.Parent = "method", owner+"."+d.Name, parent
				if implMethods != nil && (*impls)[len(*impls)-1].trait != "" || parent >= 0 && t.f.Defs[parent].Exported {
					d.Exported = true // a trait's methods are as visible as the trait
				}
			}
			d.Signature = t.header(n, body)
			i := t.add(d, n)
			if implMethods != nil {
				*implMethods = append(*implMethods, i)
			}
		case "function_signature_item":
			if parent >= 0 {
				t.f.Defs[parent].Methods = append(t.f.Defs[parent].Methods, d.Name)
			}
		case "struct_item", "union_item", "enum_item", "trait_item":
			if owner != "" {
				continue
			}
			d.Kind = map[string]string{"struct_item": "struct", "union_item": "struct", "enum_item": "enum", "trait_item": "trait"}[ty]
			d.Signature = t.header(n, body)
			if ty == "trait_item" {
				if b := t.field(n, "bounds"); b != nil {
					for _, bc := range t.children(b) {
						if bc.n.IsNamed() {
							d.Bases = append(d.Bases, oneLine(t.text(bc.n)))
						}
					}
				}
			}
			i := t.add(d, n)
			if ty == "trait_item" && body != nil {
				t.skip[key(body)] = true
				t.rustItems(body, d.Name, i, impls)
				for j := i + 1; j < len(t.f.Defs); j++ {
					if t.f.Defs[j].Parent == i && t.f.Defs[j].Kind == "method" {
						t.f.Defs[i].Methods = append(t.f.Defs[i].Methods, strings.TrimPrefix(t.f.Defs[j].Name, d.Name+"."))
					}
				}
				t.walkRefsOf(i, body) // the signatures' types
			}
		case "type_item", "const_item", "static_item":
			if owner != "" {
				continue
			}
			d.Kind = map[string]string{"type_item": "type", "const_item": "const", "static_item": "var"}[ty]
			d.Signature = oneLine(firstLine(strings.TrimSuffix(t.text(n), ";")))
			t.add(d, n)
		case "macro_definition":
			d.Kind = "macro"
			d.Signature = "macro_rules! " + d.Name
			d.Exported = false
			for _, p := range pending {
				if strings.Contains(t.text(p), "macro_export") {
					d.Exported = true
				}
			}
			t.add(d, n)
		case "impl_item":
			if body == nil || owner != "" {
				continue
			}
			im := rustImpl{typ: t.rustTypeName(t.field(n, "type"))}
			if tr := t.field(n, "trait"); tr != nil {
				im.trait = oneLine(t.text(tr))
			}
			*impls = append(*impls, im)
			t.rustItems(body, im.typ, -1, impls)
		case "mod_item":
			if body != nil && owner == "" {
				t.rustItems(body, "", -1, impls)
			}
		case "use_declaration":
			t.rustUse(t.field(n, "argument"), "", lineOf(n))
		case "extern_crate_declaration":
			imp := Import{Path: t.text(name), Line: lineOf(n)}
			if alias := t.field(n, "alias"); alias != nil {
				imp.Name = t.text(alias)
			}
			t.quals[t.text(name)] = true
			t.f.Imports = append(t.f.Imports, imp)
		}
	}
}

// walkRefsOf adds the references found under extra nodes to def i.
func (t *tsFile) walkRefsOf(i int, nodes ...*node) {
	t.pending[i].extra = append(t.pending[i].extra, nodes...)
}

// rustTypeName is the base name of an impl's type: Lexer for Lexer<'a>,
// &mut Lexer, a::Lexer.
func (t *tsFile) rustTypeName(n *node) string {
	for n != nil {
		switch t.typ(n) {
		case "type_identifier", "primitive_type", "identifier":
			return t.text(n)
		case "scoped_type_identifier":
			n = t.field(n, "name")
		case "generic_type", "reference_type", "pointer_type":
			n = t.field(n, "type")
		default:
			return oneLine(t.text(n))
		}
	}
	return "?"
}

// rustUse adds the paths a use declaration names: use a::{b, c::d as e}
// gives a::b and a::c::d (named e).
func (t *tsFile) rustUse(n *node, prefix string, line int) {
	if n == nil {
		return
	}
	join := func(s string) string {
		if prefix == "" {
			return s
		}
		return prefix + "::" + s
	}
	add := func(path, name string) {
		t.f.Imports = append(t.f.Imports, Import{Path: path, Name: name, Line: line})
		if name == "" {
			name = path[strings.LastIndex(path, "::")+1:]
			name = strings.TrimPrefix(name, ":")
		}
		t.quals[name] = true
	}
	switch t.typ(n) {
	case "scoped_use_list":
		p := join(strings.Join(strings.Fields(t.text(t.field(n, "path"))), ""))
		for _, c := range t.children(t.field(n, "list")) {
			if c.n.IsNamed() && !strings.HasSuffix(t.typ(c.n), "comment") {
				if t.typ(c.n) == "self" {
					add(p, "")
					continue
				}
				t.rustUse(c.n, p, line)
			}
		}
	case "use_list":
		for _, c := range t.children(n) {
			if c.n.IsNamed() && !strings.HasSuffix(t.typ(c.n), "comment") {
				t.rustUse(c.n, prefix, line)
			}
		}
	case "use_as_clause":
		add(join(strings.Join(strings.Fields(t.text(t.field(n, "path"))), "")), t.text(t.field(n, "alias")))
	case "use_wildcard":
		t.f.Imports = append(t.f.Imports, Import{Path: join(strings.Join(strings.Fields(t.text(n)), "")), Line: line})
	default:
		add(join(strings.Join(strings.Fields(t.text(n)), "")), "")
	}
}

// rustRefs records calls (macros too), named types and struct literals,
// paths through imported modules, and the file's own names used as values.
func rustRefs(t *tsFile, r *refSet, n *node) bool {
	switch t.typ(n) {
	case "call_expression":
		t.rustCallee(r, t.field(n, "function"))
		t.walkRefs(r, t.field(n, "arguments"))
		return false
	case "macro_invocation":
		t.rustCallee(r, t.field(n, "macro"))
		for _, c := range t.children(n) {
			if c.field != "macro" {
				t.walkRefs(r, c.n)
			}
		}
		return false
	case "scoped_identifier":
		t.rustPath(r, n, false)
		return false
	case "scoped_type_identifier":
		if name, qual, ok := t.dotted(n, "path", "name"); ok && qual != "" {
			t.use(r, name, qual, false)
		} else {
			t.use(r, name, "", false)
		}
		return false
	case "type_identifier":
		t.use(r, t.text(n), "", false)
		return false
	case "type_binding": // Iterator<Item = T>: Item is no reference
		t.walkRefs(r, t.field(n, "type"))
		return false
	case "identifier":
		t.mention(r, n)
		return false
	case "let_declaration", "parameter", "closure_parameters", "for_expression":
		p := t.field(n, "pattern")
		if t.typ(n) == "closure_parameters" {
			p = n
		}
		t.walk(p, func(c *node) bool {
			if t.typ(c) == "identifier" {
				r.local(t.text(c))
			}
			return t.typ(c) != "scoped_identifier"
		})
		for _, c := range t.children(n) {
			if c.n != p {
				t.walkRefs(r, c.n)
			}
		}
		return false
	case "function_item":
		if name := t.field(n, "name"); name != nil {
			r.local(t.text(name))
		}
		return true
	case "string_literal", "raw_string_literal", "line_comment", "block_comment", "attribute_item", "field_identifier":
		return false
	}
	return true
}

func (t *tsFile) rustCallee(r *refSet, fn *node) {
	if fn == nil {
		return
	}
	switch t.typ(fn) {
	case "identifier":
		t.use(r, t.text(fn), "", true)
	case "scoped_identifier":
		t.rustPath(r, fn, true)
	case "field_expression":
		t.walkRefs(r, t.field(fn, "value"))
		r.add(t.text(t.field(fn, "field")), "", true)
	case "generic_function":
		t.rustCallee(r, t.field(fn, "function"))
		t.walkRefs(r, t.field(fn, "type_arguments"))
	default:
		t.walkRefs(r, fn)
	}
}

// rustPath records a::b::name: qualified when the path starts at an import
// or a crate root, else the name and its type (Lexer::new names Lexer).
func (t *tsFile) rustPath(r *refSet, n *node, call bool) {
	name, qual, ok := t.dotted(n, "path", "name")
	if ok && qual != "" {
		t.use(r, name, qual, call)
		return
	}
	if p := t.field(n, "path"); p != nil {
		t.walkRefs(r, p)
		if pn := t.rustTypeName(p); pn != "" && pn[0] >= 'A' && pn[0] <= 'Z' {
			t.use(r, pn, "", false)
		}
	}
	if call {
		r.add(name, "", true)
	}
}
