package code

import (
	"strings"
)

// cBuiltins are names that are never references in C and C++.
const cBuiltins = `NULL nullptr true false this sizeof alignof offsetof`

// extractC reads a C or C++ file: functions (prototypes too when the file
// has no definition of that name, as in a header), structs, unions, enums,
// typedefs and using aliases, global variables, #define macros with a body,
// and for C++ classes with their methods, defined inside the class or out of
// line (Class::method), named Class.method. Preprocessor conditionals,
// extern "C" blocks and namespaces are read through; namespaces do not
// prefix names.
func extractC(t *tsFile) {
	c := &cFile{classes: map[string]int{}}
	t.cItems(c, t.root, "", -1, false)
	// out-of-line methods find their class once the whole file is read
	for _, m := range c.outOfLine {
		d := &t.f.Defs[m]
		if p, ok := c.classes[d.Name[:strings.LastIndexByte(d.Name, '.')]]; ok {
			d.Parent = p
			d.Exported = t.f.Defs[p].Exported
		}
	}
	t.dropPrototypes(c.prototypes)
}

// cFile is what reading one C or C++ file keeps.
type cFile struct {
	classes    map[string]int // class or struct name → index in Defs
	outOfLine  []int          // Class::method definitions
	prototypes []int          // functions only declared
}

// cItems reads the declarations in a translation unit, a namespace, a
// preprocessor block or a class body. owner is the class's name and public
// whether its members start out public (struct) in a class body.
func (t *tsFile) cItems(c *cFile, block *node, owner string, parent int, public bool) {
	var pending []*node
	access := public
	for _, ch := range t.children(block) {
		n := ch.n
		ty := t.typ(n)
		if ty == "comment" {
			pending = append(pending, n)
			continue
		}
		doc, start := t.docComments(pending, n, isComment)
		pending = pending[:0]
		outer := n
		var template []string
		if ty == "template_declaration" {
			template = t.typeParams(n)
			for _, x := range t.children(n) {
				switch t.typ(x.n) {
				case "function_definition", "class_specifier", "struct_specifier", "union_specifier", "declaration", "alias_declaration", "field_declaration":
					n = x.n
				}
			}
			ty = t.typ(n)
		}
		first := len(t.f.Defs)
		switch ty {
		case "access_specifier":
			access = strings.HasPrefix(t.text(n), "public")
		case "preproc_include":
			if p := t.field(n, "path"); p != nil {
				t.f.Imports = append(t.f.Imports, Import{Path: strings.Trim(t.text(p), "\"<>"), Line: lineOf(n)})
			}
		case "preproc_def", "preproc_function_def":
			if owner != "" || t.field(n, "value") == nil { // an include guard or a flag
				continue
			}
			name := t.field(n, "name")
			sig := "#define " + t.text(name)
			if params := t.field(n, "parameters"); params != nil {
				sig += t.text(params)
			} else {
				sig += " " + firstLine(t.text(t.field(n, "value")))
			}
			t.skip[key(name)] = true
			t.add(Def{Kind: "macro", Name: t.text(name), Signature: oneLine(sig), Doc: doc,
				LineStart: start, LineEnd: endLine(n), Parent: -1, Exported: true}, t.field(n, "value"))
		case "preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "preproc_elifdef", "declaration_list":
			// each branch's children, the next #elif or #else among them
			t.cItems(c, n, owner, parent, access)
		case "linkage_specification", "namespace_definition":
			if body := t.field(n, "body"); body != nil && t.typ(body) == "declaration_list" {
				t.cItems(c, body, owner, parent, access)
			} else if ty == "linkage_specification" { // extern "C" int f(void);
				t.cItems(c, n, owner, parent, access)
			}
		case "function_definition":
			t.cFunction(c, n, outer, doc, start, owner, parent, access)
		case "declaration", "field_declaration":
			t.cDeclaration(c, n, outer, doc, start, owner, parent, access)
		case "type_definition":
			if owner != "" {
				continue
			}
			spec := t.field(n, "type")
			name := t.cDeclName(t.field(n, "declarator"))
			if spec != nil && t.field(spec, "body") != nil {
				t.cRecord(c, spec, outer, name, doc, start, owner, parent, true)
				continue
			}
			if name == "" {
				continue
			}
			t.add(Def{Kind: "type", Name: name, Signature: oneLine(firstLine(strings.TrimSuffix(t.text(n), ";"))),
				Doc: doc, LineStart: start, LineEnd: endLine(outer), Parent: -1, Exported: true}, n)
		case "alias_declaration":
			t.skip[key(t.field(n, "name"))] = true
			t.add(Def{Kind: "type", Name: t.cPrefix(owner) + t.text(t.field(n, "name")),
				Signature: oneLine(firstLine(strings.TrimSuffix(t.text(n), ";"))), Doc: doc,
				LineStart: start, LineEnd: endLine(outer), Parent: parent, Exported: owner == "" || access}, n)
		case "class_specifier", "struct_specifier", "union_specifier", "enum_specifier":
			if t.field(n, "body") != nil {
				t.cRecord(c, n, outer, "", doc, start, owner, parent, owner == "" || access)
			}
		}
		if template != nil {
			for i := first; i < len(t.f.Defs); i++ {
				t.pending[i].locals = append(t.pending[i].locals, template...)
			}
		}
	}
}

func (t *tsFile) cPrefix(owner string) string {
	if owner == "" {
		return ""
	}
	return owner + "."
}

// cDeclName is the name a declarator declares: through pointers, arrays,
// function declarators and parentheses to the identifier. A qualified name
// A::b is "A.b".
func (t *tsFile) cDeclName(n *node) string {
	for n != nil {
		switch t.typ(n) {
		case "identifier", "field_identifier", "type_identifier", "destructor_name", "operator_name", "primitive_type":
			return t.text(n)
		case "qualified_identifier":
			scope, name := t.field(n, "scope"), t.field(n, "name")
			if name == nil {
				return oneLine(t.text(n))
			}
			if s := t.cDeclName(name); scope != nil {
				return t.cBaseName(scope) + "." + s
			} else {
				return s
			}
		}
		d := t.field(n, "declarator")
		if d == nil {
			d = t.ofType(n, "identifier", "field_identifier", "type_identifier", "qualified_identifier", "function_declarator",
				"pointer_declarator", "reference_declarator", "array_declarator", "parenthesized_declarator")
		}
		n = d
	}
	return ""
}

// cBaseName is a scope's name without namespaces or template arguments:
// Node for ns::Node<T>.
func (t *tsFile) cBaseName(n *node) string {
	switch t.typ(n) {
	case "template_type":
		return t.text(t.field(n, "name"))
	case "qualified_identifier":
		if name := t.field(n, "name"); name != nil {
			return t.cBaseName(name)
		}
	}
	return oneLine(t.text(n))
}

// cFuncDeclarator is the function declarator inside a declarator, if any.
func (t *tsFile) cFuncDeclarator(n *node) *node {
	for n != nil {
		switch t.typ(n) {
		case "function_declarator":
			return n
		case "pointer_declarator", "reference_declarator", "parenthesized_declarator", "init_declarator", "attributed_declarator":
			n = t.field(n, "declarator")
			if n == nil {
				return nil
			}
		default:
			return nil
		}
	}
	return nil
}

// cStatic reports a static storage class among a declaration's children.
func (t *tsFile) cStatic(n *node) bool {
	for _, c := range t.children(n) {
		if t.typ(c.n) == "storage_class_specifier" && t.text(c.n) == "static" {
			return true
		}
	}
	return false
}

func (t *tsFile) cFunction(c *cFile, n, outer *node, doc string, start int, owner string, parent int, access bool) {
	decl := t.field(n, "declarator")
	name := t.cDeclName(decl)
	body := t.field(n, "body")
	if name == "" {
		return
	}
	if body == nil { // = 0, = default, = delete: declared only
		if owner != "" && parent >= 0 {
			t.f.Defs[parent].Methods = append(t.f.Defs[parent].Methods, name)
		}
		return
	}
	d := Def{
		Kind:      "func",
		Name:      t.cPrefix(owner) + name,
		Signature: t.sig(t.sigStart(outer), t.headerEnd(n, body)),
		Doc:       doc,
		LineStart: start,
		LineEnd:   endLine(outer),
		Parent:    parent,
		Exported:  !t.cStatic(n),
	}
	if owner != "" {
		d.Kind, d.Exported = "method", access
		if parent >= 0 {
			t.f.Defs[parent].Methods = append(t.f.Defs[parent].Methods, name)
		}
	}
	i := t.add(d, n)
	if owner == "" && strings.Contains(name, ".") {
		t.f.Defs[i].Kind = "method"
		c.outOfLine = append(c.outOfLine, i)
	}
}

// cDeclaration reads a declaration: a prototype, a method declared in a
// class, or a global variable.
func (t *tsFile) cDeclaration(c *cFile, n, outer *node, doc string, start int, owner string, parent int, access bool) {
	var declarators []*node
	var spec *node
	extern := false
	for _, ch := range t.children(n) {
		switch {
		case ch.field == "declarator":
			declarators = append(declarators, ch.n)
		case ch.field == "type":
			spec = ch.n
		case t.typ(ch.n) == "storage_class_specifier" && t.text(ch.n) == "extern":
			extern = true
		}
	}
	if spec != nil && t.field(spec, "body") != nil {
		switch t.typ(spec) { // struct x { … } v;
		case "class_specifier", "struct_specifier", "union_specifier", "enum_specifier":
			t.cRecord(c, spec, outer, "", doc, start, owner, parent, owner == "" || access)
			return
		}
	}
	if len(declarators) == 0 {
		return
	}
	if fd := t.cFuncDeclarator(declarators[0]); fd != nil {
		name := t.cDeclName(fd)
		if owner != "" { // a method declared in its class
			if parent >= 0 && name != "" {
				t.f.Defs[parent].Methods = append(t.f.Defs[parent].Methods, name)
			}
			return
		}
		if name == "" || strings.Contains(name, ".") {
			return
		}
		i := t.add(Def{
			Kind:      "func",
			Name:      name,
			Signature: oneLine(strings.TrimSuffix(span(t.src, int(t.sigStart(outer)), int(n.EndByte())), ";")),
			Doc:       doc,
			LineStart: start,
			LineEnd:   endLine(outer),
			Parent:    -1,
			Exported:  !t.cStatic(n),
		}, n)
		c.prototypes = append(c.prototypes, i)
		return
	}
	if owner != "" || extern {
		return
	}
	name := t.cDeclName(declarators[0])
	if name == "" {
		return
	}
	kind := "var"
	for _, ch := range t.children(n) {
		if t.typ(ch.n) == "type_qualifier" && t.text(ch.n) == "const" && t.typ(declarators[0]) != "pointer_declarator" &&
			t.typ(t.field(declarators[0], "declarator")) != "pointer_declarator" {
			kind = "const"
		}
	}
	t.add(Def{
		Kind:      kind,
		Name:      name,
		Signature: oneLine(firstLine(strings.TrimSuffix(t.text(n), ";"))),
		Doc:       doc,
		LineStart: start,
		LineEnd:   endLine(outer),
		Parent:    -1,
		Exported:  !t.cStatic(n),
	}, n)
}

// cRecord reads a struct, union, enum or class with a body; alias is the
// typedef name that names it, if any.
func (t *tsFile) cRecord(c *cFile, n, outer *node, alias, doc string, start int, owner string, parent int, exported bool) {
	name := t.text(t.field(n, "name"))
	if alias != "" {
		name = alias
	}
	if name == "" {
		return // an anonymous struct of a variable
	}
	if nm := t.field(n, "name"); nm != nil {
		t.skip[key(nm)] = true
	}
	body := t.field(n, "body")
	kind := map[string]string{"class_specifier": "class", "struct_specifier": "struct", "union_specifier": "struct", "enum_specifier": "enum"}[t.typ(n)]
	d := Def{
		Kind:      kind,
		Name:      t.cPrefix(owner) + name,
		Doc:       doc,
		LineStart: start,
		LineEnd:   endLine(outer),
		Parent:    parent,
		Exported:  exported,
	}
	if alias != "" {
		d.Signature = oneLine("typedef " + span(t.src, int(n.StartByte()), int(t.headerEnd(n, body))) + " { … } " + alias)
	} else {
		d.Signature = t.sig(t.sigStart(n), t.headerEnd(n, body))
	}
	if bases := t.ofType(n, "base_class_clause"); bases != nil {
		for _, b := range t.children(bases) {
			switch t.typ(b.n) {
			case "type_identifier", "qualified_identifier", "template_type":
				d.Bases = append(d.Bases, oneLine(t.text(b.n)))
			}
		}
	}
	i := t.add(d, n)
	if _, dup := c.classes[simpleName(d.Name)]; !dup && kind != "enum" {
		c.classes[simpleName(d.Name)] = i
	}
	if kind == "enum" || body == nil {
		return
	}
	t.skip[key(body)] = true
	t.pending[i].extra = append(t.pending[i].extra, body)
	first := len(t.f.Defs)
	t.cItems(c, body, d.Name, i, kind != "class")
	for j := first; j < len(t.f.Defs); j++ {
		t.skip[key(t.pending[j].nodes[0])] = true
	}
	// Methods are kept for abstract classes only: those with a pure
	// virtual method
	abstract := false
	t.walk(body, func(x *node) bool {
		// "= 0": a pure_virtual_clause in the grammar compiled in, a
		// function's default_value in the web edition's (tree-sitter-cpp
		// 0.23)
		if t.typ(x) == "pure_virtual_clause" || t.typ(x) == "field_declaration" &&
			t.cFuncDeclarator(t.field(x, "declarator")) != nil && t.text(t.field(x, "default_value")) == "0" {
			abstract = true
		}
		return !abstract && (x == body || t.typ(x) == "field_declaration" || t.typ(x) == "function_definition" || t.typ(x) == "declaration")
	})
	ms := t.f.Defs[i].Methods
	t.f.Defs[i].Methods = nil
	if abstract {
		for _, m := range ms {
			if m != name && m != "~"+name {
				t.f.Defs[i].Methods = append(t.f.Defs[i].Methods, m)
			}
		}
	}
}

// dropPrototypes removes the prototypes of functions the file also
// defines, keeping Parent indexes right.
func (t *tsFile) dropPrototypes(protos []int) {
	if len(protos) == 0 {
		return
	}
	defined := map[string]bool{}
	isProto := map[int]bool{}
	for _, i := range protos {
		isProto[i] = true
	}
	for i, d := range t.f.Defs {
		if d.Kind == "func" && !isProto[i] {
			defined[d.Name] = true
		}
	}
	newIndex := make([]int, len(t.f.Defs))
	defs, pending := t.f.Defs[:0], t.pending[:0]
	for i, d := range t.f.Defs {
		if isProto[i] && defined[d.Name] {
			newIndex[i] = -1
			continue
		}
		newIndex[i] = len(defs)
		defs, pending = append(defs, d), append(pending, t.pending[i])
	}
	for i := range defs {
		if p := defs[i].Parent; p >= 0 {
			defs[i].Parent = newIndex[p]
		}
	}
	t.f.Defs, t.pending = defs, pending
}

// cRefs records calls (macros included), constructions, named types,
// namespace-qualified names, and the file's own names used as values.
func cRefs(t *tsFile, r *refSet, n *node) bool {
	switch t.typ(n) {
	case "call_expression":
		t.cCallee(r, t.field(n, "function"))
		t.walkRefs(r, t.field(n, "arguments"))
		return false
	case "new_expression":
		if ty := t.field(n, "type"); ty != nil {
			t.cCallee(r, ty)
		}
		for _, c := range t.children(n) {
			if c.field != "type" {
				t.walkRefs(r, c.n)
			}
		}
		return false
	case "qualified_identifier":
		t.cQualified(r, n, false)
		return false
	case "type_identifier":
		t.use(r, t.text(n), "", false)
		return false
	case "identifier":
		t.mention(r, n)
		return false
	case "parameter_declaration", "init_declarator", "declaration":
		if d := t.field(n, "declarator"); d != nil {
			if name := t.cDeclName(d); name != "" {
				r.local(name)
			}
		}
		return true
	case "string_literal", "raw_string_literal", "char_literal", "comment", "field_identifier", "sizeof_expression":
		return t.typ(n) == "sizeof_expression"
	}
	return true
}

func (t *tsFile) cCallee(r *refSet, fn *node) {
	if fn == nil {
		return
	}
	switch t.typ(fn) {
	case "identifier", "type_identifier":
		t.use(r, t.text(fn), "", true)
	case "field_expression":
		t.walkRefs(r, t.field(fn, "argument"))
		if f := t.field(fn, "field"); f != nil {
			r.add(t.cDeclName(f), "", true)
		}
	case "qualified_identifier":
		t.cQualified(r, fn, true)
	case "template_function", "template_type":
		t.cCallee(r, t.field(fn, "name"))
		t.walkRefs(r, t.field(fn, "arguments"))
	default:
		t.walkRefs(r, fn)
	}
}

// cQualified records a::b: a class of this file as the scope names the
// class and the member; a namespace is the member's qualifier.
func (t *tsFile) cQualified(r *refSet, n *node, call bool) {
	scope, name := t.field(n, "scope"), t.field(n, "name")
	if name == nil {
		return
	}
	switch t.typ(name) {
	case "template_type", "template_function":
		t.walkRefs(r, t.field(name, "arguments"))
		name = t.field(name, "name")
	case "qualified_identifier":
		t.cQualified(r, name, call)
		return
	}
	if name == nil {
		return
	}
	if scope == nil { // ::name
		t.use(r, t.text(name), "", call)
		return
	}
	s := t.cBaseName(scope)
	if t.known[s] || t.typ(scope) == "template_type" {
		t.use(r, s, "", false)
		t.use(r, t.text(name), "", call)
		return
	}
	t.use(r, t.text(name), oneLine(t.text(scope)), call)
}
