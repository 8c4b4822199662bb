package state

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The domain never touches the file system or the processes of this
// computer itself: its records go through a store.Store, what depends on
// this computer through state/store, state/proc and state/place. Of os it
// reads only the environment.
func TestDomainTouchesNoFiles(t *testing.T) {
	banned := map[string]bool{
		"os/exec": true, "syscall": true, "io/ioutil": true,
		"github.com/fsnotify/fsnotify": true, "github.com/gofrs/flock": true,
		"github.com/google/renameio/v2": true, "github.com/conch-sh/conch/lock": true,
	}
	osAllowed := map[string]bool{"Environ": true, "Getenv": true, "UserHomeDir": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); banned[p] {
				t.Errorf("%s imports %s", name, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "os" && !osAllowed[sel.Sel.Name] {
				t.Errorf("%s: os.%s: the domain reads only the environment of os", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "filepath" {
				switch sel.Sel.Name {
				case "EvalSymlinks", "Glob", "Walk", "WalkDir":
					t.Errorf("%s: filepath.%s asks the disk", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
}
