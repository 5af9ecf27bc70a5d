//go:build cgo && !js

package code

import (
	"context"
	"fmt"
	"math"
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

// native is one tree-sitter grammar compiled in (cgo).
type native struct {
	load     func() *sitter.Language
	once     sync.Once
	language *sitter.Language
	types    []string // node type by symbol
	named    []bool   // whether a node of the symbol is named
	parsers  sync.Pool
}

var natives = map[Lang]*native{
	Python:     {load: python.GetLanguage},
	JavaScript: {load: javascript.GetLanguage},
	TypeScript: {load: typescript.GetLanguage},
	TSX:        {load: tsx.GetLanguage},
	Rust:       {load: rust.GetLanguage},
	Java:       {load: java.GetLanguage},
	C:          {load: c.GetLanguage},
	CPP:        {load: cpp.GetLanguage},
}

func (g *native) init() {
	g.once.Do(func() {
		g.language = g.load()
		n := g.language.SymbolCount()
		g.types, g.named = make([]string, n), make([]bool, n)
		for s := range n {
			g.types[s] = g.language.SymbolName(sitter.Symbol(s))
			g.named[s] = g.language.SymbolType(sitter.Symbol(s)) == sitter.SymbolTypeRegular
		}
		g.parsers.New = func() any {
			p := sitter.NewParser()
			p.SetLanguage(g.language)
			return p
		}
	})
}

// parseTree parses src with lang's grammar and copies the tree into Go.
func parseTree(lang Lang, path string, src []byte) (*node, error) {
	g := natives[lang]
	if g == nil {
		return nil, &unsupportedError{what: lang.title() + " parser", why: "no grammar is built in"}
	}
	g.init()
	p := g.parsers.Get().(*sitter.Parser)
	defer g.parsers.Put(p)
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		p.Reset()
		return nil, fmt.Errorf("the %s parser gave up on %s (%v): read it as text", lang.title(), path, err)
	}
	defer tree.Close()
	return g.copyTree(tree.RootNode(), src), nil
}

// copyTree copies the tree under root with one cursor walk, its nodes
// allocated in blocks. Calls into C are what cost (a dozen a node would
// double the parse), so lines are counted in Go from the byte offsets,
// a node's being named comes from its symbol, and a tree without errors
// asks no node whether it is one.
func (g *native) copyTree(root *sitter.Node, src []byte) *node {
	lines := newLineIndex(src)
	errs := root.HasError()
	var all []*node // in walk order, when the tree has errors
	var block []node
	fields := map[string]string{} // one string per field name
	make1 := func(n *sitter.Node) *node {
		if len(block) == cap(block) {
			block = make([]node, 0, 1024)
		}
		block = block[:len(block)+1]
		out := &block[len(block)-1]
		s := int(n.Symbol())
		switch {
		case s == math.MaxUint16: // tree-sitter's error symbol
			out.typ, out.flags = "ERROR", flagNamed|flagError|flagHasError
		case s < len(g.types):
			out.typ = g.types[s]
			if g.named[s] {
				out.flags = flagNamed
			}
		default:
			out.typ = "ERROR"
		}
		out.start, out.end = n.StartByte(), n.EndByte()
		lines.place(out)
		if errs {
			if n.IsMissing() {
				out.flags |= flagMissing | flagHasError
			}
			all = append(all, out)
		}
		return out
	}
	top := make1(root)
	defer func() {
		for i := len(all) - 1; i >= 0; i-- { // children come after their parent
			for _, c := range all[i].kids {
				all[i].flags |= c.n.flags & flagHasError
			}
		}
	}()
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	if !c.GoToFirstChild() {
		return top
	}
	stack := []*node{top}
	for {
		parent := stack[len(stack)-1]
		n := make1(c.CurrentNode())
		f := c.CurrentFieldName()
		if f != "" {
			if s, ok := fields[f]; ok {
				f = s
			} else {
				fields[f] = f
			}
		}
		parent.kids = append(parent.kids, child{n, f})
		if c.GoToFirstChild() {
			stack = append(stack, n)
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return top
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return top
			}
		}
	}
}
