package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoWorkAtStartUp: conch version must cost about what starting a
// process costs (SPEC §10), so no package of conch's may compile a regexp,
// or call anything else, in a package-level variable: such work runs at
// every start of every command. A call at package level is allowed only for
// cheap constructors listed here.
func TestNoWorkAtStartUp(t *testing.T) {
	allowed := map[string]bool{"errors.New": true, "time.Date": true}
	fset := token.NewFileSet()
	for _, dir := range []string{".", "../harness", "../harness/install", "../state", "../state/codec", "../state/digest", "../state/scrub", "../state/store", "../render", "../lock", "../cmd/conch"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		if len(files) == 0 {
			t.Errorf("%s has no Go files: a package this test reads has moved", dir)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok && fn.Name.Name == "init" && fn.Recv == nil {
					t.Errorf("%s: func init runs at every start-up", fset.Position(fn.Pos()))
				}
				gen, ok := decl.(*ast.GenDecl)
				if !ok || gen.Tok != token.VAR {
					continue
				}
				ast.Inspect(gen, func(n ast.Node) bool {
					if _, ok := n.(*ast.FuncLit); ok {
						return false // its body runs when called, not at start-up
					}
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					if paren, ok := call.Fun.(*ast.ParenExpr); ok {
						if _, ok := paren.X.(*ast.StarExpr); ok {
							return true // a conversion, (*T)(nil): no call
						}
					}
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
						if pkg, ok := sel.X.(*ast.Ident); ok && allowed[pkg.Name+"."+sel.Sel.Name] {
							return true
						}
					}
					t.Errorf("%s: a call in a package-level variable runs at every start-up", fset.Position(call.Pos()))
					return true
				})
			}
		}
	}
}
