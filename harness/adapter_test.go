package harness

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/conch-sh/conch/state"
)

// untested are the adapters whose harness no end-to-end test runs, each
// with why; the test fails when one gets its kit, so the list only shrinks.
var untested = map[string]string{
	cursorName: "cursor-agent is not on the npm registry the e2e kits install from",
}

// TestAdaptersWhole: every registered adapter is whole (issue 26 item 1):
// a name that can be a harness's id, its title and help, its install
// recipe, what it can carry, its decoder and encoder; its recorded payloads in
// testdata/hooks/NAME; its pinned version and e2e kit. Names are one
// each, and Of finds every adapter by its name.
func TestAdaptersWhole(t *testing.T) {
	pins := pinned(t)
	seen := map[string]bool{}
	for _, a := range Adapters {
		switch {
		case !state.ValidHarness(a.Name):
			t.Errorf("adapter %q: not a harness's name", a.Name)
		case seen[a.Name]:
			t.Errorf("adapter %q: registered twice", a.Name)
		}
		seen[a.Name] = true
		if a.Title == "" || a.Use == "" || a.Short == "" || a.Long == "" {
			t.Errorf("adapter %q: its title or conch hook help is missing: %+v", a.Name, a)
		}
		if a.Use != a.Name && !strings.HasPrefix(a.Use, a.Name+" ") {
			t.Errorf("adapter %q: conch hook's usage %q does not start with its name", a.Name, a.Use)
		}
		if r := a.Install; r == nil {
			t.Errorf("adapter %q: no install recipe", a.Name)
		} else if !strings.HasPrefix(r.Use, a.Name+" ") || r.Short == "" || r.Long == "" || r.Where == "" || r.After == "" || r.Dir == nil || r.Do == nil {
			t.Errorf("adapter %q: its install recipe is not whole (usage %q, starting with its name; help, where, after, Dir and Do): %+v", a.Name, r.Use, r)
		}
		if a.Decode == nil || a.Encode == nil {
			t.Errorf("adapter %q: no decoder or no encoder", a.Name)
		}
		if a.Caps.Context == 0 || a.Caps.ContextCap <= 0 {
			t.Errorf("adapter %q: its capabilities say no event reaches the model: %+v", a.Name, a.Caps)
		}
		for _, w := range a.Tools {
			if f, _ := Family(w.As, Fields{}); f == "other" || w.Name == w.As {
				t.Errorf("adapter %q: its tool %q is said as %q, no word of Claude Code's the tool table reads", a.Name, w.Name, w.As)
			}
		}
		if Of(a.Name) != a {
			t.Errorf("Of(%q) is not its adapter", a.Name)
		}
		if st, err := os.Stat(filepath.Join("..", "testdata", "hooks", a.Name)); err != nil || !st.IsDir() {
			t.Errorf("adapter %q: no recorded payloads in testdata/hooks/%s", a.Name, a.Name)
		}
		_, kit := os.Stat(filepath.Join("..", "cli", "e2e", a.Name+"_test.go"))
		if why, ok := untested[a.Name]; ok {
			if kit == nil || pins[a.Name] {
				t.Errorf("adapter %q has an e2e kit now: take it out of untested (%s)", a.Name, why)
			}
			continue
		}
		if kit != nil || !pins[a.Name] {
			t.Errorf("adapter %q: no e2e kit (cli/e2e/%s_test.go and its pin in testdata/e2e/harnesses.txt)", a.Name, a.Name)
		}
	}
	if Of("no-such-harness") != nil || Title("no-such-harness") != "no-such-harness" {
		t.Error("a harness conch does not know has an adapter")
	}
}

// pinned are the harnesses testdata/e2e/harnesses.txt pins a version of.
func pinned(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "e2e", "harnesses.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pins := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			name, _, _ := strings.Cut(line, " ")
			pins[name] = true
		}
	}
	return pins
}

// nameExceptions are the files outside a harness's own that still test
// a word equal to a harness's name, each with why.
var nameExceptions = map[string]string{
	"state/proc/kinfo.go":      "the name of Codex's program, as this computer's process table has it (codex.go's decoder asks proc)",
	"state/proc/args_linux.go": "the name of Codex's program, as /proc has it (codex.go's decoder asks proc)",
}

// TestNoHarnessNameOutside holds issue 26's promise that adding a harness
// is one file and one line: no Go file of the module but the adapter's own
// (harness/NAME.go, its install recipe with it) switches
// on a harness's name or compares a word to it, whether spelled out or
// through a constant that holds it (state's HarnessCodex was one), and no
// file of package harness but its own uses its name's constant
// (NAMEName). A file that needs to tell harnesses apart asks the adapter
// (Of, its Capabilities).
func TestNoHarnessNameOutside(t *testing.T) {
	files := goFiles(t)
	names := Names()
	// The constants anywhere that hold a harness's name.
	consts := map[string]string{}
	for _, f := range files {
		for _, d := range f.ast.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				v := spec.(*ast.ValueSpec)
				for i, id := range v.Names {
					if i < len(v.Values) {
						if name := literalName(v.Values[i], names); name != "" {
							consts[id.Name] = name
						}
					}
				}
			}
		}
	}
	nameOf := func(e ast.Expr) string {
		switch e := e.(type) {
		case *ast.Ident:
			return consts[e.Name]
		case *ast.SelectorExpr:
			return consts[e.Sel.Name]
		}
		return literalName(e, names)
	}
	found := map[string]bool{}
	for _, f := range files {
		say := func(at ast.Node, name, how string) {
			if ownFile(f.rel, name) {
				return
			}
			if _, ok := nameExceptions[f.rel]; ok {
				found[f.rel] = true
				return
			}
			t.Errorf("%s: %s %q outside its adapter's file: ask the adapter", f.fset.Position(at.Pos()), how, name)
		}
		inHarness := path.Dir(f.rel) == "harness"
		ast.Inspect(f.ast, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op == token.EQL || n.Op == token.NEQ {
					for _, side := range []ast.Expr{n.X, n.Y} {
						if name := nameOf(side); name != "" {
							say(side, name, "compares to")
						}
					}
				}
			case *ast.CaseClause:
				for _, e := range n.List {
					if name := nameOf(e); name != "" {
						say(e, name, "switches on")
					}
				}
			case *ast.Ident:
				if name := consts[n.Name]; inHarness && name != "" && n.Name == name+"Name" {
					say(n, name, "names")
				}
			}
			return true
		})
	}
	for file, why := range nameExceptions {
		if !found[file] {
			t.Errorf("%s names no harness now: take it out of nameExceptions (%s)", file, why)
		}
	}
}

// ownFile says whether the module's file rel is the harness's own: its
// adapter's, with its install recipe (OpenCode's and Pi's plugins share
// plugin.go).
func ownFile(rel, name string) bool {
	base := strings.TrimSuffix(path.Base(rel), ".go")
	dir := path.Dir(rel)
	plugin := base == "plugin" && (name == opencodeName || name == piName)
	return dir == "harness" && (base == name || plugin)
}

// literalName is the harness name a string literal spells, or "".
func literalName(e ast.Expr, names []string) string {
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
		if s, err := strconv.Unquote(lit.Value); err == nil && slices.Contains(names, s) {
			return s
		}
	}
	return ""
}

type goFile struct {
	rel  string // its path in the module, with slashes
	fset *token.FileSet
	ast  *ast.File
}

// goFiles are the module's Go files but its tests and test data, parsed.
func goFiles(t *testing.T) []goFile {
	t.Helper()
	fset := token.NewFileSet()
	var files []goFile
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", p)
		files = append(files, goFile{rel: filepath.ToSlash(rel), fset: fset, ast: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestHandlersTakeTheEvent (issue 26 item 2): the event is every
// handler's parameter, never a field of the run being handled, and a run
// carries only what every handler shares (saying once, updating under the
// lock): no handler hangs on it.
func TestHandlersTakeTheEvent(t *testing.T) {
	var methods []string
	for _, f := range goFiles(t) {
		if path.Dir(f.rel) != "harness" {
			continue
		}
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					continue
				}
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok && id.Name == "run" {
					methods = append(methods, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok || ts.Name.Name != "run" {
						continue
					}
					for _, field := range ts.Type.(*ast.StructType).Fields.List {
						typ := field.Type
						if star, ok := typ.(*ast.StarExpr); ok {
							typ = star.X
						}
						if id, ok := typ.(*ast.Ident); ok && id.Name == "Event" {
							t.Errorf("run holds the event (%s): pass it to the handlers", f.fset.Position(field.Pos()))
						}
					}
				}
			}
		}
	}
	slices.Sort(methods)
	if want := []string{"say", "update"}; !slices.Equal(methods, want) {
		t.Errorf("run's methods are %q, want only %q: a handler takes the run and the event as parameters", methods, want)
	}
}
