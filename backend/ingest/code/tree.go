package code

// node is one node of a syntax tree as the extractors read it, in Go: the
// tree-sitter tree of the desktop app and the CLI (treesitter_cgo.go) is
// copied into these once per parse, and the web edition's (read by
// web-tree-sitter in the page: treesitter_js.go) is sent over as a flat
// list. Reading it costs no call into C or JavaScript.
type node struct {
	typ        string // the grammar's name of the node's type ("ERROR" for an error node)
	start, end uint32 // byte offsets in the source
	// row and endRow are 0-based lines; endCol is the byte column of the
	// end (only whether it is 0 matters: see endLine).
	row, endRow, endCol uint32
	flags               uint8
	kids                []child
}

// The node's flags.
const (
	flagNamed uint8 = 1 << iota
	flagError
	flagMissing
	flagHasError // the node or a descendant is an error or missing
)

// child is a node's child with its field name.
type child struct {
	n     *node
	field string
}

func (n *node) StartByte() uint32 { return n.start }
func (n *node) EndByte() uint32   { return n.end }
func (n *node) IsNamed() bool     { return n.flags&flagNamed != 0 }
func (n *node) IsError() bool     { return n.flags&flagError != 0 }
func (n *node) IsMissing() bool   { return n.flags&flagMissing != 0 }
func (n *node) HasError() bool    { return n.flags&flagHasError != 0 }

// ChildByFieldName is the first child with the given field name.
func (n *node) ChildByFieldName(name string) *node {
	for _, c := range n.kids {
		if c.field == name {
			return c.n
		}
	}
	return nil
}

// nodeKey identifies a node of the tree being read.
type nodeKey = *node

func key(n *node) nodeKey { return n }

// typ is a node's type name ("" for none).
func (t *tsFile) typ(n *node) string {
	if n == nil {
		return ""
	}
	return n.typ
}

func (t *tsFile) text(n *node) string {
	if n == nil {
		return ""
	}
	return span(t.src, int(n.start), int(n.end))
}

func lineOf(n *node) int { return int(n.row) + 1 }

// endLine is the last line a node covers: a node that ends at the start of
// a line (its text ends with the new line) ends on the line before.
func endLine(n *node) int {
	if n.endCol == 0 && n.endRow > n.row {
		return int(n.endRow)
	}
	return int(n.endRow) + 1
}

// children lists a node's children (the tree's own slice: callers do not
// change it).
func (t *tsFile) children(n *node) []child {
	if n == nil {
		return nil
	}
	return n.kids
}

// field is the child with the given field name; unlike ChildByFieldName
// alone it never answers with a comment.
func (t *tsFile) field(n *node, name string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.kids {
		if c.field == name && c.n.typ != "comment" {
			return c.n
		}
	}
	return nil
}

// ofType is the first child of one of the given types.
func (t *tsFile) ofType(n *node, types ...string) *node {
	for _, c := range t.children(n) {
		for _, ty := range types {
			if c.n.typ == ty {
				return c.n
			}
		}
	}
	return nil
}

// walk visits n and its descendants in source order; visit returns whether
// to go into a node's children. It keeps its own stack, so a deep tree
// does not recurse.
func (t *tsFile) walk(n *node, visit func(*node) bool) {
	if n == nil || !visit(n) {
		return
	}
	type frame struct {
		kids []child
		i    int
	}
	stack := []frame{{n.kids, 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i >= len(top.kids) {
			stack = stack[:len(stack)-1]
			continue
		}
		c := top.kids[top.i].n
		top.i++
		if visit(c) && len(c.kids) > 0 {
			stack = append(stack, frame{c.kids, 0})
		}
	}
}
