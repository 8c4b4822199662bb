package state

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"
)

// maxMethods is how many methods a type of the domain may have, counted
// over its whole method set: its own, and those it reaches through the
// types it embeds (issue 26: a *Tx reached 195).
const maxMethods = 40

// TestSmallTypes holds every type of package state to maxMethods methods,
// promoted ones included, as the source declares them.
func TestSmallTypes(t *testing.T) {
	own, embeds := declaredMethods(t)
	if len(own["Tx"]) == 0 || len(own["View"]) == 0 || len(embeds["ChatsTx"]) == 0 {
		t.Fatal("the methods of Tx, View and ChatsTx were not read")
	}
	var names []string
	for name := range own {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		n := len(methodSet(name, own, embeds, map[string]bool{}))
		if n >= 10 {
			t.Logf("%s: %d methods", name, n)
		}
		if n > maxMethods {
			t.Errorf("%s has %d methods (promoted ones included): more than %d", name, n, maxMethods)
		}
	}
}

// declaredMethods reads state's files (not its tests): each type's own
// method names, and the types each struct embeds.
func declaredMethods(t *testing.T) (own map[string]map[string]bool, embeds map[string][]string) {
	t.Helper()
	own, embeds = map[string]map[string]bool{}, map[string][]string{}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					continue
				}
				recv := typeName(d.Recv.List[0].Type)
				if own[recv] == nil {
					own[recv] = map[string]bool{}
				}
				own[recv][d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					if own[ts.Name.Name] == nil {
						own[ts.Name.Name] = map[string]bool{}
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fl := range st.Fields.List {
						if len(fl.Names) == 0 {
							embeds[ts.Name.Name] = append(embeds[ts.Name.Name], typeName(fl.Type))
						}
					}
				}
			}
		}
	}
	return own, embeds
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return typeName(e.X)
	}
	return ""
}

// methodSet is every method name a value of the type reaches.
func methodSet(name string, own map[string]map[string]bool, embeds map[string][]string, seen map[string]bool) map[string]bool {
	set := map[string]bool{}
	if seen[name] {
		return set
	}
	seen[name] = true
	for m := range own[name] {
		set[m] = true
	}
	for _, e := range embeds[name] {
		for m := range methodSet(e, own, embeds, seen) {
			set[m] = true
		}
	}
	return set
}
