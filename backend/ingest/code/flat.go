package code

import (
	"fmt"
	"sort"
	"unicode/utf8"
)

// lineIndex finds the line of a byte offset.
type lineIndex []uint32 // where each line starts

func newLineIndex(src []byte) lineIndex {
	lines := lineIndex{0}
	for i, b := range src {
		if b == '\n' {
			lines = append(lines, uint32(i+1))
		}
	}
	return lines
}

// row is the 0-based line of byte offset off.
func (l lineIndex) row(off uint32) uint32 {
	return uint32(sort.Search(len(l), func(i int) bool { return l[i] > off }) - 1)
}

// place sets n's lines from its byte offsets.
func (l lineIndex) place(n *node) {
	n.row, n.endRow = l.row(n.start), l.row(n.end)
	n.endCol = n.end - l[n.endRow]
}

// flatRecord is how many numbers a node takes in a flat tree.
const flatRecord = 5

// The flags of a flat tree's node (its last number, after its depth × 8).
const (
	flatNamed   = 1
	flatError   = 2
	flatMissing = 4
)

// readFlat builds the tree of src from its flat form, as the web edition's
// page sends it (frontend/src/web/codetree.js): flatRecord numbers a node,
// in source order: its type (an index into types), its field (an index
// into fields, -1 for none), its start and end in UTF-16 code units of the
// source, and its depth × 8 + flags. units is the source's length in
// UTF-16 code units as the page read it.
func readFlat(src []byte, types, fields []string, recs []int32, units int) (*node, error) {
	if len(recs) == 0 || len(recs)%flatRecord != 0 {
		return nil, fmt.Errorf("the page's syntax tree has %d numbers, not whole nodes of %d", len(recs), flatRecord)
	}
	// byteAt[u] is the byte offset of UTF-16 code unit u.
	byteAt := make([]uint32, 0, len(src)+1)
	for off := 0; off < len(src); {
		r, w := utf8.DecodeRune(src[off:])
		byteAt = append(byteAt, uint32(off))
		if r >= 0x10000 {
			byteAt = append(byteAt, uint32(off)) // the second half of a surrogate pair
		}
		off += w
	}
	byteAt = append(byteAt, uint32(len(src)))
	if len(byteAt)-1 != units {
		return nil, fmt.Errorf("the page read the source as %d UTF-16 code units, not %d", units, len(byteAt)-1)
	}
	lines := newLineIndex(src)
	n := len(recs) / flatRecord
	nodes := make([]node, n)
	var stack []*node
	for i := range n {
		r := recs[i*flatRecord : (i+1)*flatRecord]
		t, f, start, end, depth, flags := int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4])/8, r[4]%8
		if r[4] < 0 || t < 0 || t >= len(types) || f < -1 || f >= len(fields) || start < 0 || end < start || end > units || depth > len(stack) || (i == 0) != (depth == 0) {
			return nil, fmt.Errorf("the page's syntax tree is damaged at node %d", i)
		}
		nd := &nodes[i]
		nd.typ, nd.start, nd.end = types[t], byteAt[start], byteAt[end]
		if flags&flatNamed != 0 {
			nd.flags |= flagNamed
		}
		if flags&flatError != 0 {
			nd.flags |= flagError | flagHasError
		}
		if flags&flatMissing != 0 {
			nd.flags |= flagMissing | flagHasError
		}
		lines.place(nd)
		stack = stack[:depth]
		if depth > 0 {
			field := ""
			if f >= 0 {
				field = fields[f]
			}
			parent := stack[depth-1]
			parent.kids = append(parent.kids, child{nd, field})
		}
		stack = append(stack, nd)
	}
	for i := n - 1; i >= 0; i-- { // children come after their parent
		for _, c := range nodes[i].kids {
			nodes[i].flags |= c.n.flags & flagHasError
		}
	}
	return &nodes[0], nil
}
