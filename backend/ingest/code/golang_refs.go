package code

import (
	"go/ast"
	"go/token"
)

// goRefs gathers the references of one Go declaration. Without type
// checking, a plain identifier is a reference unless it is a builtin or is
// declared inside the declaration (parameters, receivers, := and var
// declarations, range variables, type parameters): one flat set per
// declaration, so a local that shadows a package-level name hides it.
type goRefs struct {
	pkgs   map[string]bool
	locals map[string]bool
	set    refSet
}

func (g *goFile) newRefs(scope ast.Node) *goRefs {
	r := &goRefs{pkgs: g.pkgs, locals: map[string]bool{}}
	if scope != nil {
		ast.Inspect(scope, r.declare)
	}
	return r
}

// declare notes the names a node declares locally.
func (r *goRefs) declare(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.FuncDecl:
		if x.Recv != nil {
			for _, f := range x.Recv.List {
				r.names(f.Names)
				// the receiver's type parameters: func (l *List[T]) …
				ast.Inspect(f.Type, func(n ast.Node) bool {
					switch t := n.(type) {
					case *ast.IndexExpr:
						r.declareIdent(t.Index)
					case *ast.IndexListExpr:
						for _, i := range t.Indices {
							r.declareIdent(i)
						}
					}
					return true
				})
			}
		}
	case *ast.FuncType:
		for _, fl := range []*ast.FieldList{x.TypeParams, x.Params, x.Results} {
			if fl != nil {
				for _, f := range fl.List {
					r.names(f.Names)
				}
			}
		}
	case *ast.AssignStmt:
		if x.Tok == token.DEFINE {
			for _, e := range x.Lhs {
				r.declareIdent(e)
			}
		}
	case *ast.RangeStmt:
		if x.Tok == token.DEFINE {
			r.declareIdent(x.Key)
			r.declareIdent(x.Value)
		}
	case *ast.ValueSpec:
		r.names(x.Names)
	case *ast.TypeSpec:
		r.locals[x.Name.Name] = true
		if x.TypeParams != nil {
			for _, f := range x.TypeParams.List {
				r.names(f.Names)
			}
		}
	}
	return true
}

func (r *goRefs) names(ids []*ast.Ident) {
	for _, id := range ids {
		r.locals[id.Name] = true
	}
}

func (r *goRefs) declareIdent(e ast.Expr) {
	if id, ok := e.(*ast.Ident); ok {
		r.locals[id.Name] = true
	}
}

func (r *goRefs) walk(n ast.Node) {
	if n != nil {
		ast.Inspect(n, r.visit)
	}
}

// typ, funcType and fields walk a type expression: named types are
// references, field and parameter names are not (ast.Field skips them).
func (r *goRefs) typ(e ast.Expr)              { r.walk(e) }
func (r *goRefs) funcType(t *ast.FuncType)    { r.walk(t) }
func (r *goRefs) fields(fl *ast.FieldList)    { r.walk(fl) }
func (r *goRefs) ident(id *ast.Ident, c bool) { r.use(id.Name, "", c) }

func (r *goRefs) use(name, qual string, call bool) {
	if qual == "" && (goBuiltins[name] || r.locals[name]) {
		return
	}
	r.set.add(name, qual, call)
}

func (r *goRefs) visit(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.Ident:
		r.ident(x, false)
		return false
	case *ast.CallExpr:
		r.call(x.Fun)
		for _, a := range x.Args {
			r.walk(a)
		}
		return false
	case *ast.SelectorExpr:
		r.selector(x, false)
		return false
	case *ast.CompositeLit:
		r.walk(x.Type)
		_, isMap := x.Type.(*ast.MapType)
		for _, e := range x.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok && !isMap {
				if _, field := kv.Key.(*ast.Ident); field { // T{Name: v}
					r.walk(kv.Value)
					continue
				}
			}
			r.walk(e)
		}
		return false
	case *ast.Field:
		r.walk(x.Type)
		return false
	case *ast.BranchStmt, *ast.BadExpr, *ast.BadStmt, *ast.BadDecl, *ast.BasicLit, *ast.Comment, *ast.CommentGroup:
		return false
	case *ast.LabeledStmt:
		r.walk(x.Stmt)
		return false
	}
	return true
}

// call records what a call expression calls.
func (r *goRefs) call(fun ast.Expr) {
	switch f := fun.(type) {
	case *ast.ParenExpr:
		r.call(f.X)
	case *ast.Ident:
		r.ident(f, true)
	case *ast.SelectorExpr:
		r.selector(f, true)
	case *ast.IndexExpr: // generic instantiation: F[T](…)
		r.call(f.X)
		r.walk(f.Index)
	case *ast.IndexListExpr:
		r.call(f.X)
		for _, i := range f.Indices {
			r.walk(i)
		}
	default:
		r.walk(f)
	}
}

// selector records X.Sel: a package's member with its qualifier, a
// method's name when called; a field read on a value is not a reference.
func (r *goRefs) selector(x *ast.SelectorExpr, call bool) {
	if id, ok := x.X.(*ast.Ident); ok && r.pkgs[id.Name] && !r.locals[id.Name] {
		r.use(x.Sel.Name, id.Name, call)
		return
	}
	if call { // a method: its name is no local nor builtin
		r.set.add(x.Sel.Name, "", true)
	}
	r.walk(x.X)
}
