package code

import (
	"strconv"
	"strings"
)

// jsBuiltins are the globals and TypeScript utility types that are never
// references.
const jsBuiltins = `require module exports console JSON Math Object Array String Number Boolean
	Symbol BigInt Promise Error TypeError RangeError Map Set WeakMap WeakSet Date RegExp
	parseInt parseFloat isNaN isFinite undefined NaN Infinity globalThis window document
	setTimeout clearTimeout setInterval clearInterval queueMicrotask fetch structuredClone
	Record Partial Required Readonly Pick Omit Exclude Extract NonNullable ReturnType
	Parameters InstanceType Awaited ReadonlyArray Iterable AsyncIterable Uint8Array`

// jsState is what reading one JavaScript or TypeScript file keeps between
// statements.
type jsState struct {
	exportNames map[string]bool // export { a, b }, module.exports = { a }
}

// extractJS reads a JavaScript, TypeScript or TSX module: functions
// (declared, or function expressions and arrow functions bound at the top
// level), classes with their methods, interfaces, type aliases, enums, and
// constants that are exported or UPPER_CASE.
func extractJS(t *tsFile) {
	s := &jsState{exportNames: map[string]bool{}}
	t.jsStatements(s, t.root, "")
	for i := range t.f.Defs {
		d := &t.f.Defs[i]
		if d.Parent == -1 && s.exportNames[d.Name] {
			d.Exported = true
		}
		if d.Parent >= 0 && !t.private[i] && t.f.Defs[d.Parent].Exported {
			d.Exported = true
		}
	}
}

func (t *tsFile) jsStatements(s *jsState, block *node, prefix string) {
	var pending []*node
	for _, c := range t.children(block) {
		n := c.n
		ty := t.typ(n)
		if ty == "comment" {
			pending = append(pending, n)
			continue
		}
		doc, start := t.docComments(pending, n, isComment)
		pending = pending[:0]
		switch ty {
		case "import_statement":
			t.jsImport(n)
		case "export_statement":
			t.jsExport(s, n, doc, start, prefix)
		case "expression_statement":
			t.jsExpression(s, n, doc, start)
		case "ambient_declaration": // declare …
			for _, d := range t.children(n) {
				if d.n.IsNamed() && t.typ(d.n) != "comment" {
					t.jsDecl(d.n, n, false, doc, start, prefix)
				}
			}
		default:
			t.jsDecl(n, n, false, doc, start, prefix)
		}
	}
}

func isComment(n *node) bool { return true }

// jsString is a string literal's value.
func (t *tsFile) jsString(n *node) string {
	s := t.text(n)
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return strings.Trim(s, "\"'`")
}

func (t *tsFile) jsImport(n *node) {
	imp := Import{Path: t.jsString(t.field(n, "source")), Line: lineOf(n)}
	if clause := t.ofType(n, "import_clause"); clause != nil {
		for _, c := range t.children(clause) {
			switch t.typ(c.n) {
			case "identifier": // import fs from "fs"
				imp.Name = t.text(c.n)
				t.quals[imp.Name] = true
			case "namespace_import": // import * as path from "path"
				if id := t.ofType(c.n, "identifier"); id != nil {
					imp.Name = t.text(id)
					t.quals[imp.Name] = true
				}
			case "named_imports":
				for _, sp := range t.children(c.n) {
					if t.typ(sp.n) != "import_specifier" {
						continue
					}
					b := t.field(sp.n, "alias")
					if b == nil {
						b = t.field(sp.n, "name")
					}
					t.quals[t.text(b)] = true
				}
			}
		}
	}
	if imp.Path != "" {
		t.f.Imports = append(t.f.Imports, imp)
	}
}

// jsRequire reads require("x") as an import binding name, "" when the
// call is no require of a literal.
func (t *tsFile) jsRequire(call *node, name string, line int) bool {
	if call == nil || t.typ(call) != "call_expression" {
		return false
	}
	fn, args := t.field(call, "function"), t.field(call, "arguments")
	if fn == nil || args == nil || t.text(fn) != "require" {
		return false
	}
	str := t.ofType(args, "string")
	if str == nil {
		return false
	}
	t.f.Imports = append(t.f.Imports, Import{Path: t.jsString(str), Name: name, Line: line})
	return true
}

func (t *tsFile) jsExport(s *jsState, n *node, doc string, start int, prefix string) {
	if src := t.field(n, "source"); src != nil { // export … from "x"
		t.f.Imports = append(t.f.Imports, Import{Path: t.jsString(src), Line: lineOf(n)})
		return
	}
	if d := t.field(n, "declaration"); d != nil {
		t.jsDecl(d, n, true, doc, start, prefix)
		return
	}
	for _, c := range t.children(n) {
		switch t.typ(c.n) {
		case "export_clause": // export { a, b as c }
			for _, sp := range t.children(c.n) {
				if t.typ(sp.n) == "export_specifier" {
					s.exportNames[t.text(t.field(sp.n, "name"))] = true
				}
			}
		case "identifier": // export default name
			s.exportNames[t.text(c.n)] = true
		case "function_expression", "function", "arrow_function", "class", "generator_function":
			// export default function () {}
			t.jsFuncValue(c.n, n, "default", true, doc, start)
		}
	}
}

// jsExpression reads CommonJS exports: exports.f = function …, and
// module.exports = { a, b }.
func (t *tsFile) jsExpression(s *jsState, n *node, doc string, start int) {
	a := t.ofType(n, "assignment_expression")
	if a == nil {
		if call := t.ofType(n, "call_expression"); call != nil {
			t.jsRequire(call, "", lineOf(n))
		}
		return
	}
	left, right := t.field(a, "left"), t.field(a, "right")
	if left == nil || right == nil {
		return
	}
	l := strings.Join(strings.Fields(t.text(left)), "")
	switch {
	case l == "module.exports" && t.typ(right) == "object":
		for _, c := range t.children(right) {
			switch t.typ(c.n) {
			case "shorthand_property_identifier":
				s.exportNames[t.text(c.n)] = true
			case "pair":
				if v := t.field(c.n, "value"); v != nil && t.typ(v) == "identifier" {
					s.exportNames[t.text(v)] = true
				}
			}
		}
	case l == "module.exports" && t.typ(right) == "identifier":
		s.exportNames[t.text(right)] = true
	case strings.HasPrefix(l, "exports.") || strings.HasPrefix(l, "module.exports."):
		if isJSFunc(t.typ(right)) {
			t.jsFuncValue(right, n, l[strings.LastIndexByte(l, '.')+1:], true, doc, start)
		}
	}
}

func isJSFunc(ty string) bool {
	switch ty {
	case "arrow_function", "function_expression", "function", "generator_function":
		return true
	}
	return false
}

// jsFuncValue makes a "func" of a function expression bound to a name.
func (t *tsFile) jsFuncValue(fn, outer *node, name string, exported bool, doc string, start int) {
	if t.typ(fn) == "class" {
		t.jsClass(fn, outer, name, exported, doc, start, "")
		return
	}
	body := t.field(fn, "body")
	if nm := t.field(fn, "name"); nm != nil {
		t.skip[key(nm)] = true
	}
	t.add(Def{
		Kind:      "func",
		Name:      name,
		Signature: t.sig(t.sigStart(outer), t.headerEnd(fn, body)),
		Doc:       doc,
		LineStart: start,
		LineEnd:   endLine(outer),
		Parent:    -1,
		Exported:  exported,
	}, fn)
}

// sigStart is where a declaration's header begins: after its decorators.
func (t *tsFile) sigStart(n *node) uint32 {
	for _, c := range t.children(n) {
		switch t.typ(c.n) {
		case "decorator", "comment", "attribute_item", "attribute", "marker_annotation", "annotation":
			continue
		}
		return c.n.StartByte()
	}
	return n.StartByte()
}

// jsDecl reads one declaration; outer is the statement that holds it (an
// export statement), which gives the lines.
func (t *tsFile) jsDecl(n, outer *node, exported bool, doc string, start int, prefix string) {
	name := t.text(t.field(n, "name"))
	switch ty := t.typ(n); ty {
	case "function_declaration", "generator_function_declaration":
		if name == "" {
			name = "default"
		}
		body := t.field(n, "body")
		t.add(Def{
			Kind:      "func",
			Name:      prefix + name,
			Signature: t.sig(t.sigStart(outer), t.headerEnd(n, body)),
			Doc:       doc,
			LineStart: start,
			LineEnd:   endLine(outer),
			Parent:    -1,
			Exported:  exported,
		}, n)
		t.skip[key(t.field(n, "name"))] = true
	case "class_declaration", "abstract_class_declaration", "class":
		if name == "" {
			name = "default"
		}
		t.jsClass(n, outer, name, exported, doc, start, prefix)
	case "interface_declaration":
		body := t.field(n, "body")
		d := Def{
			Kind:      "interface",
			Name:      prefix + name,
			Signature: t.sig(t.sigStart(outer), t.headerEnd(n, body)),
			Doc:       doc,
			LineStart: start,
			LineEnd:   endLine(outer),
			Parent:    -1,
			Exported:  exported,
		}
		if ext := t.ofType(n, "extends_type_clause", "extends_clause"); ext != nil {
			d.Bases = t.jsHeritage(ext)
		}
		for _, m := range t.children(body) {
			if t.typ(m.n) == "method_signature" {
				d.Methods = append(d.Methods, t.text(t.field(m.n, "name")))
			}
		}
		t.skip[key(t.field(n, "name"))] = true
		t.add(d, n)
	case "type_alias_declaration", "enum_declaration":
		d := Def{
			Kind:      "type",
			Name:      prefix + name,
			Doc:       doc,
			LineStart: start,
			LineEnd:   endLine(outer),
			Parent:    -1,
			Exported:  exported,
		}
		if ty == "enum_declaration" {
			d.Kind = "enum"
			d.Signature = t.sig(t.sigStart(outer), t.headerEnd(n, t.field(n, "body")))
		} else {
			d.Signature = oneLine(firstLine(strings.TrimSuffix(span(t.src, int(t.sigStart(outer)), int(n.EndByte())), ";")))
		}
		t.skip[key(t.field(n, "name"))] = true
		t.add(d, n)
	case "lexical_declaration", "variable_declaration":
		kind := "var"
		if strings.HasPrefix(t.text(n), "const") {
			kind = "const"
		}
		for _, c := range t.children(n) {
			if t.typ(c.n) == "variable_declarator" {
				t.jsVar(c.n, outer, kind, exported, doc, start, prefix)
			}
		}
	case "internal_module", "module": // namespace N { … }
		if body := t.field(n, "body"); body != nil && name != "" {
			t.jsStatements(&jsState{exportNames: map[string]bool{}}, body, prefix+name+".")
		}
	case "function_signature": // an overload or a declared function: no body
	}
}

// jsVar reads one top-level binding: a function value is a "func", any
// other value a constant when exported or UPPER_CASE.
func (t *tsFile) jsVar(v, outer *node, kind string, exported bool, doc string, start int, prefix string) {
	nameNode, value := t.field(v, "name"), t.field(v, "value")
	name := t.text(nameNode)
	if nameNode == nil || t.typ(nameNode) != "identifier" {
		// const { a, b } = require("x")
		if nameNode != nil && t.jsRequire(value, "", lineOf(v)) {
			t.walk(nameNode, func(n *node) bool {
				if ty := t.typ(n); ty == "identifier" || ty == "shorthand_property_identifier_pattern" {
					t.quals[t.text(n)] = true
				}
				return true
			})
		}
		return
	}
	if t.jsRequire(value, name, lineOf(v)) {
		t.quals[name] = true
		return
	}
	if value != nil && isJSFunc(t.typ(value)) {
		t.jsFuncValue(value, outer, prefix+name, exported, doc, start)
		return
	}
	if value != nil && t.typ(value) == "class" {
		t.jsClass(value, outer, prefix+name, exported, doc, start, "")
		return
	}
	if !exported && !pythonConst.MatchString(name) {
		return
	}
	t.skip[key(nameNode)] = true
	t.add(Def{
		Kind:      kind,
		Name:      prefix + name,
		Signature: oneLine(firstLine(span(t.src, int(t.sigStart(outer)), int(v.EndByte())))),
		Doc:       doc,
		LineStart: start,
		LineEnd:   endLine(outer),
		Parent:    -1,
		Exported:  exported,
	}, v)
}

// jsHeritage lists the types a class or interface extends or implements,
// as written.
func (t *tsFile) jsHeritage(n *node) []string {
	var out []string
	for _, c := range t.children(n) {
		switch ty := t.typ(c.n); {
		case ty == "extends_clause": // TypeScript: extends X<T>
			var from, to uint32
			for _, e := range t.children(c.n) {
				if e.n.IsNamed() && t.typ(e.n) != "comment" {
					if t.typ(e.n) == "type_arguments" && from != 0 {
						to = e.n.EndByte()
						continue
					}
					if from != 0 {
						out = append(out, oneLine(span(t.src, int(from), int(to))))
					}
					from, to = e.n.StartByte(), e.n.EndByte()
				}
			}
			if from != 0 {
				out = append(out, oneLine(span(t.src, int(from), int(to))))
			}
		case ty == "implements_clause" || ty == "extends_type_clause":
			out = append(out, t.jsHeritage(c.n)...)
		case c.n.IsNamed() && ty != "comment" && ty != "type_arguments":
			out = append(out, oneLine(t.text(c.n)))
		}
	}
	return out
}

func (t *tsFile) jsClass(n, outer *node, name string, exported bool, doc string, start int, prefix string) {
	body := t.field(n, "body")
	d := Def{
		Kind:      "class",
		Name:      prefix + name,
		Signature: t.sig(t.sigStart(outer), t.headerEnd(n, body)),
		Doc:       doc,
		LineStart: start,
		LineEnd:   endLine(outer),
		Parent:    -1,
		Exported:  exported,
	}
	if h := t.ofType(n, "class_heritage"); h != nil {
		d.Bases = t.jsHeritage(h)
	}
	abstract := t.typ(n) == "abstract_class_declaration"
	if nm := t.field(n, "name"); nm != nil {
		t.skip[key(nm)] = true
	}
	ci := t.add(d, n)
	var methods []string
	var pending []*node
	for _, c := range t.children(body) {
		m := c.n
		ty := t.typ(m)
		if ty == "comment" {
			pending = append(pending, m)
			continue
		}
		mdoc, mstart := t.docComments(pending, m, isComment)
		pending = pending[:0]
		var fn, mbody *node
		switch ty {
		case "method_definition":
			fn, mbody = m, t.field(m, "body")
		case "abstract_method_signature", "method_signature":
			methods = append(methods, t.text(t.field(m, "name")))
			continue
		case "public_field_definition", "field_definition":
			v := t.field(m, "value")
			if v == nil || !isJSFunc(t.typ(v)) {
				continue
			}
			fn, mbody = v, t.field(v, "body")
		default:
			continue
		}
		mname := t.text(t.field(m, "name"))
		if mname == "" {
			mname = t.text(t.field(m, "property"))
		}
		methods = append(methods, mname)
		private := strings.HasPrefix(mname, "#")
		if acc := t.ofType(m, "accessibility_modifier"); acc != nil && t.text(acc) == "private" {
			private = true
		}
		t.skip[key(m)] = true
		if private {
			t.private[len(t.f.Defs)] = true
		}
		t.add(Def{
			Kind:      "method",
			Name:      d.Name + "." + mname,
			Signature: t.sig(t.sigStart(m), t.headerEnd(fn, mbody)),
			Doc:       mdoc,
			LineStart: mstart,
			LineEnd:   endLine(m),
			Parent:    ci,
			Exported:  exported && !private,
		}, m)
	}
	if abstract {
		t.f.Defs[ci].Methods = methods
	}
}

// jsRefs records calls (with new), named types, JSX components, and the
// file's own names and imports used as values.
func jsRefs(t *tsFile, r *refSet, n *node) bool {
	switch t.typ(n) {
	case "call_expression", "new_expression":
		fn := t.field(n, "function")
		if fn == nil {
			fn = t.field(n, "constructor")
		}
		if fn != nil && t.text(fn) == "require" {
			t.jsRequire(n, "", lineOf(n))
			return false
		}
		t.jsCallee(r, fn)
		for _, c := range t.children(n) {
			if c.field != "function" && c.field != "constructor" {
				t.walkRefs(r, c.n)
			}
		}
		return false
	case "member_expression":
		if name, qual, ok := t.dotted(n, "object", "property"); ok && qual != "" {
			t.use(r, name, qual, false)
			return false
		}
		t.walkRefs(r, t.field(n, "object"))
		return false
	case "class_heritage": // JavaScript: extends Base, any expression
		t.walk(n, func(c *node) bool {
			switch t.typ(c) {
			case "identifier":
				t.use(r, t.text(c), "", false)
			case "member_expression":
				if name, qual, ok := t.dotted(c, "object", "property"); ok {
					t.use(r, name, qual, false)
				}
				return false
			case "extends_clause", "class_heritage":
				return true
			default:
				return jsRefs(t, r, c)
			}
			return false
		})
		return false
	case "nested_type_identifier": // ns.Type
		if name, qual, ok := t.dotted(n, "module", "name"); ok {
			t.use(r, name, qual, false)
		}
		return false
	case "type_identifier":
		t.use(r, t.text(n), "", false)
		return false
	case "jsx_opening_element", "jsx_self_closing_element":
		if name := t.field(n, "name"); name != nil {
			if s := t.text(name); s != "" && s[0] >= 'A' && s[0] <= 'Z' {
				t.jsCallee(r, name)
			}
		}
		for _, c := range t.children(n) {
			if c.field != "name" {
				t.walkRefs(r, c.n)
			}
		}
		return false
	case "function_declaration", "generator_function_declaration", "class_declaration":
		if name := t.field(n, "name"); name != nil {
			r.local(t.text(name))
		}
		return true
	case "variable_declarator":
		t.jsBindings(t.field(n, "name"), r.local)
		return true
	case "formal_parameters":
		t.jsBindings(n, r.local)
		return true
	case "identifier", "shorthand_property_identifier":
		t.mention(r, n)
		return false
	case "string", "comment", "property_identifier", "regex":
		return false
	}
	return true
}

// jsBindings calls bind with each name a binding pattern or a parameter
// list declares.
func (t *tsFile) jsBindings(n *node, bind func(string)) {
	if n == nil {
		return
	}
	switch t.typ(n) {
	case "identifier", "shorthand_property_identifier_pattern":
		bind(t.text(n))
	case "assignment_pattern", "object_assignment_pattern":
		t.jsBindings(t.field(n, "left"), bind)
	case "pair_pattern":
		t.jsBindings(t.field(n, "value"), bind)
	case "required_parameter", "optional_parameter":
		t.jsBindings(t.field(n, "pattern"), bind)
	case "object_pattern", "array_pattern", "rest_pattern", "formal_parameters":
		for _, c := range t.children(n) {
			if c.n.IsNamed() {
				t.jsBindings(c.n, bind)
			}
		}
	}
}

func (t *tsFile) jsCallee(r *refSet, fn *node) {
	if fn == nil {
		return
	}
	switch t.typ(fn) {
	case "identifier", "type_identifier":
		t.use(r, t.text(fn), "", true)
	case "member_expression", "jsx_namespace_name", "nested_identifier":
		name, qual, _ := t.dotted(fn, "object", "property")
		if name == "" {
			t.walkRefs(r, fn)
			return
		}
		if qual == "" {
			t.walkRefs(r, t.field(fn, "object"))
		}
		r.add(name, qual, true)
	case "super", "import":
	default:
		t.walkRefs(r, fn)
	}
}
