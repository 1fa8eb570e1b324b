package wasm

// Not upstream's (see ../../README.md).

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// TestEnumDefaultsAreTheModules checks what the patch relies on: upstream
// set the enum variables (GRAPH, API_RENDER, ...) from the module in its
// package init, before packages cgraph and gvc copy them into their own
// variables (cgraph.GRAPH = ObjectTag(wasm.GRAPH)); started later, the
// module sets them after those copies were made, so each variable's
// initial value in bind.go must be the module's.
func TestEnumDefaultsAreTheModules(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "bind.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	initial := map[string]int{}  // variable: its initial value
	bound := map[string]string{} // variable: the module's name for it
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, s := range d.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) != 1 || len(vs.Values) != 1 {
					continue
				}
				if v, ok := intLiteral(vs.Values[0]); ok {
					initial[vs.Names[0].Name] = v
				}
			}
		case *ast.FuncDecl:
			if d.Name.Name != "start" {
				continue
			}
			ast.Inspect(d.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
					return true
				}
				id, ok := as.Lhs[0].(*ast.Ident)
				conv, ok2 := as.Rhs[0].(*ast.CallExpr)
				if !ok || !ok2 || len(conv.Args) != 1 {
					return true
				}
				call, ok := conv.Args[0].(*ast.CallExpr)
				if !ok || len(call.Args) != 2 {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "getEnumValue" {
					return true
				}
				if lit, ok := call.Args[1].(*ast.BasicLit); ok {
					name, _ := strconv.Unquote(lit.Value)
					bound[id.Name] = name
				}
				return true
			})
		}
	}
	if len(bound) < 90 {
		t.Fatalf("%d enum values bound in start, want the 93 of v0.2.10: has bind.go changed?", len(bound))
	}
	if err := Start(nil); err != nil {
		t.Fatal(err)
	}
	for v, name := range bound {
		want, ok := initial[v]
		if !ok {
			t.Errorf("%s: no initial value in bind.go", v)
			continue
		}
		if got := mod.getEnumValue(context.Background(), name); got != want {
			t.Errorf("%s: the module's %s is %d, its initial value %d", v, name, got, want)
		}
	}
}

// intLiteral reads an integer literal, negative or not.
func intLiteral(e ast.Expr) (int, bool) {
	neg := false
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		neg, e = true, u.X
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(lit.Value, "_", ""), 0, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		v = -v
	}
	return int(v), true
}
