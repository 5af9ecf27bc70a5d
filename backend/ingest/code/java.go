package code

import (
	"strings"
)

// javaBuiltins are java.lang's common classes: never references.
const javaBuiltins = `Object String Integer Long Double Float Boolean Character Byte Short Number Math
	System StringBuilder Exception RuntimeException Error Throwable Override Deprecated
	SuppressWarnings FunctionalInterface Iterable Comparable Runnable Thread Class Void Enum
	Record CharSequence this super`

// extractJava reads a compilation unit: classes, interfaces, enums,
// records and annotation types (nested ones named Outer.Inner), their
// methods and constructors (Class.method, Class.Class), and static final
// fields as constants.
func extractJava(t *tsFile) {
	t.javaBody(t.root, "", -1, false)
}

// javaBody reads the declarations in a program or a type's body; owner is
// the type's name ("" at the top) and iface whether it is an interface.
func (t *tsFile) javaBody(body *node, owner string, parent int, iface bool) {
	var pending []*node
	prefix := ""
	if owner != "" {
		prefix = owner + "."
	}
	for _, c := range t.children(body) {
		n := c.n
		ty := t.typ(n)
		if ty == "block_comment" || ty == "line_comment" {
			pending = append(pending, n)
			continue
		}
		doc, start := t.docComments(pending, n, isComment)
		pending = pending[:0]
		mods := t.javaModifiers(n)
		exported := mods["public"] || iface && !mods["private"]
		name := t.field(n, "name")
		d := Def{
			Name:      prefix + t.text(name),
			Doc:       doc,
			LineStart: start,
			LineEnd:   endLine(n),
			Parent:    parent,
			Exported:  exported,
		}
		if name != nil {
			t.skip[key(name)] = true
		}
		switch ty {
		case "package_declaration":
			if p := t.ofType(n, "scoped_identifier", "identifier"); p != nil {
				t.f.Package = t.text(p)
			}
		case "import_declaration":
			t.javaImport(n)
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
			d.Kind = map[string]string{"class_declaration": "class", "interface_declaration": "interface",
				"enum_declaration": "enum", "record_declaration": "class", "annotation_type_declaration": "interface"}[ty]
			b := t.field(n, "body")
			d.Signature = t.sig(t.javaSigStart(n), t.headerEnd(n, b))
			for _, h := range t.children(n) {
				switch t.typ(h.n) {
				case "superclass", "super_interfaces", "extends_interfaces":
					t.walk(h.n, func(x *node) bool {
						switch t.typ(x) {
						case "type_identifier", "generic_type", "scoped_type_identifier":
							d.Bases = append(d.Bases, oneLine(t.text(x)))
							return false
						}
						return true
					})
				}
			}
			i := t.add(d, n)
			if b == nil {
				continue
			}
			t.skip[key(b)] = true
			t.walkRefsOf(i, b)
			isIface := d.Kind == "interface"
			first := len(t.f.Defs)
			t.javaBody(b, d.Name, i, isIface)
			if isIface || mods["abstract"] {
				t.f.Defs[i].Methods = append(t.javaAbstract(b), t.f.Defs[i].Methods...)
				for j := first; j < len(t.f.Defs); j++ {
					if m := t.f.Defs[j]; m.Parent == i && m.Kind == "method" && !strings.HasSuffix(m.Name, "."+t.text(name)) {
						t.f.Defs[i].Methods = append(t.f.Defs[i].Methods, strings.TrimPrefix(m.Name, d.Name+"."))
					}
				}
			}
		case "enum_body_declarations":
			t.javaBody(n, owner, parent, iface)
		case "method_declaration", "constructor_declaration", "compact_constructor_declaration":
			b := t.field(n, "body")
			if b == nil || owner == "" { // abstract or interface methods are only declared
				continue
			}
			d.Kind = "method"
			d.Signature = t.sig(t.javaSigStart(n), t.headerEnd(n, b))
			t.skip[key(n)] = true
			t.add(d, n)
		case "field_declaration", "constant_declaration":
			if owner == "" || !(mods["static"] && mods["final"]) && !(iface && ty == "constant_declaration") {
				continue
			}
			decl := t.field(n, "declarator")
			if decl == nil {
				continue
			}
			d.Kind = "const"
			d.Name = prefix + t.text(t.field(decl, "name"))
			d.Signature = oneLine(firstLine(strings.TrimSuffix(span(t.src, int(t.javaSigStart(n)), int(n.EndByte())), ";")))
			t.skip[key(n)] = true
			t.add(d, n)
		}
	}
}

// javaAbstract lists the methods a body declares without a body.
func (t *tsFile) javaAbstract(body *node) []string {
	var out []string
	for _, c := range t.children(body) {
		if t.typ(c.n) == "method_declaration" && t.field(c.n, "body") == nil {
			out = append(out, t.text(t.field(c.n, "name")))
		}
	}
	return out
}

// javaModifiers is the set of a declaration's modifier keywords.
func (t *tsFile) javaModifiers(n *node) map[string]bool {
	m := map[string]bool{}
	if mods := t.ofType(n, "modifiers"); mods != nil {
		for _, c := range t.children(mods) {
			if !c.n.IsNamed() {
				m[t.text(c.n)] = true
			}
		}
	}
	return m
}

// javaSigStart is where a declaration's header begins: past its
// annotations.
func (t *tsFile) javaSigStart(n *node) uint32 {
	cs := t.children(n)
	for i, c := range cs {
		switch t.typ(c.n) {
		case "block_comment", "line_comment":
			continue
		case "modifiers":
			for _, m := range t.children(c.n) {
				switch t.typ(m.n) {
				case "marker_annotation", "annotation", "block_comment", "line_comment":
					continue
				}
				return m.n.StartByte()
			}
			if i+1 < len(cs) {
				return cs[i+1].n.StartByte()
			}
		}
		return c.n.StartByte()
	}
	return n.StartByte()
}

func (t *tsFile) javaImport(n *node) {
	p := t.ofType(n, "scoped_identifier", "identifier")
	if p == nil {
		return
	}
	path := strings.Join(strings.Fields(t.text(p)), "")
	if t.ofType(n, "asterisk") != nil {
		path += ".*"
	} else {
		t.quals[path[strings.LastIndexByte(path, '.')+1:]] = true
	}
	t.f.Imports = append(t.f.Imports, Import{Path: path, Line: lineOf(n)})
}

// javaRefs records method calls, constructions, named types, static
// members of imported classes, and the file's own names used as values.
func javaRefs(t *tsFile, r *refSet, n *node) bool {
	switch t.typ(n) {
	case "method_invocation":
		obj, name := t.field(n, "object"), t.field(n, "name")
		switch {
		case obj == nil:
			t.use(r, t.text(name), "", true)
		case rootTypes[t.typ(obj)] && t.quals[t.text(obj)]:
			t.use(r, t.text(name), t.text(obj), true)
		default:
			t.walkRefs(r, obj)
			r.add(t.text(name), "", true)
		}
		t.walkRefs(r, t.field(n, "type_arguments"))
		t.walkRefs(r, t.field(n, "arguments"))
		return false
	case "object_creation_expression":
		if ty := t.field(n, "type"); ty != nil {
			name := ty
			if t.typ(ty) == "generic_type" {
				name = t.ofType(ty, "type_identifier", "scoped_type_identifier")
				t.walkRefs(r, t.ofType(ty, "type_arguments"))
			}
			if name != nil && t.typ(name) == "type_identifier" {
				t.use(r, t.text(name), "", true)
			} else {
				t.walkRefs(r, ty)
			}
		}
		for _, c := range t.children(n) {
			if c.field != "type" {
				t.walkRefs(r, c.n)
			}
		}
		return false
	case "field_access":
		obj := t.field(n, "object")
		if obj != nil && rootTypes[t.typ(obj)] && t.quals[t.text(obj)] {
			t.use(r, t.text(t.field(n, "field")), t.text(obj), false)
			return false
		}
		t.walkRefs(r, obj)
		return false
	case "type_identifier":
		t.use(r, t.text(n), "", false)
		return false
	case "type_parameter":
		if id := t.ofType(n, "type_identifier", "identifier"); id != nil {
			r.local(t.text(id))
		}
		return true
	case "identifier":
		t.mention(r, n)
		return false
	case "formal_parameter", "catch_formal_parameter", "variable_declarator", "enhanced_for_statement":
		if name := t.field(n, "name"); name != nil {
			r.local(t.text(name))
		}
		for _, c := range t.children(n) {
			if c.field != "name" {
				t.walkRefs(r, c.n)
			}
		}
		return false
	case "string_literal", "line_comment", "block_comment", "marker_annotation":
		return false
	}
	return true
}
