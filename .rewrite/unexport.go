package main

// rewrite unexport: every exported name of package state (a package-level
// name, or a method) that no other package of the module uses, its tests
// included, is made unexported, in state's files. "Used" is named, or met
// as the type of an expression (a value of the type another package holds
// without naming it). Kept exported whatever: fields (encoding/json reads
// them), the methods an interface of the standard library asks for, names
// declared in test files (export_test.go), and names whose unexported
// form is taken. It writes the names it changed to unexported.txt, and the
// domain methods' new names into table.txt, so that calls.sh maps an old
// call to the name as it is now.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"sort"
	"strings"
	"unicode"
)

var keepMethods = map[string]bool{
	"Error": true, "Unwrap": true, "Is": true, "As": true, "String": true, "GoString": true, "Format": true,
	"MarshalJSON": true, "UnmarshalJSON": true, "MarshalText": true, "UnmarshalText": true,
	"Read": true, "Write": true, "Close": true, "Len": true, "Less": true, "Swap": true, "Push": true, "Pop": true,
}

type checked struct {
	p     listed
	xtest bool
	fset  *token.FileSet
	files []*ast.File
	info  *types.Info
	pkg   *types.Package
}

func loadAll(patterns []string) ([]*checked, error) {
	pkgs, err := goList(patterns)
	if err != nil {
		return nil, err
	}
	exports := map[string]string{}
	for _, p := range pkgs {
		if p.Export != "" {
			exports[p.ImportPath] = p.Export
		}
	}
	var out []*checked
	for _, p := range pkgs {
		if p.ForTest != "" || p.Module == nil || p.Module.Path != "github.com/conch-sh/conch" || strings.HasSuffix(p.ImportPath, ".test") {
			continue
		}
		in := append(append(append([]string{}, p.GoFiles...), p.CgoFiles...), p.TestGoFiles...)
		c, err := typeCheck(p, in, exports)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		if len(p.XTestGoFiles) > 0 {
			c, err := typeCheck(p, p.XTestGoFiles, exports)
			if err != nil {
				return nil, err
			}
			c.xtest = true
			out = append(out, c)
		}
	}
	return out, nil
}

// key names an object of state across type-checks: a name, or Type.Method.
func key(obj types.Object) string {
	if f, ok := obj.(*types.Func); ok {
		if recv := f.Signature().Recv(); recv != nil {
			return recvName(recv.Type()) + "." + f.Name()
		}
	}
	if v, ok := obj.(*types.Var); ok && v.IsField() {
		return ""
	}
	if obj.Parent() != obj.Pkg().Scope() {
		return ""
	}
	return obj.Name()
}

func recvName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// markTypes marks every named type of state that t is made of.
func markTypes(t types.Type, used map[string]bool, seen map[types.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if t.Obj().Pkg() != nil && t.Obj().Pkg().Path() == statePath {
			used[t.Obj().Name()] = true
		}
		if ta := t.TypeArgs(); ta != nil {
			for i := 0; i < ta.Len(); i++ {
				markTypes(ta.At(i), used, seen)
			}
		}
	case *types.Pointer:
		markTypes(t.Elem(), used, seen)
	case *types.Slice:
		markTypes(t.Elem(), used, seen)
	case *types.Array:
		markTypes(t.Elem(), used, seen)
	case *types.Map:
		markTypes(t.Key(), used, seen)
		markTypes(t.Elem(), used, seen)
	case *types.Chan:
		markTypes(t.Elem(), used, seen)
	case *types.Signature:
		for i := 0; i < t.Params().Len(); i++ {
			markTypes(t.Params().At(i).Type(), used, seen)
		}
		for i := 0; i < t.Results().Len(); i++ {
			markTypes(t.Results().At(i).Type(), used, seen)
		}
	}
}

func lowerName(s string) string {
	r := []rune(s)
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) && unicode.IsLower(r[n]) {
		n-- // MCPOnly: mcpOnly
	}
	for i := 0; i < n; i++ {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

func unexport(patterns []string, skip map[string]bool) error {
	all, err := loadAll(patterns)
	if err != nil {
		return err
	}
	used := map[string]bool{}
	var state *checked
	for _, c := range all {
		if c.p.ImportPath == statePath && !c.xtest {
			state = c
			continue
		}
		for _, obj := range c.info.Uses {
			if obj.Pkg() != nil && obj.Pkg().Path() == statePath {
				if k := key(obj); k != "" {
					used[k] = true
				}
			}
		}
		seen := map[types.Type]bool{}
		for _, tv := range c.info.Types {
			markTypes(tv.Type, used, seen)
		}
	}
	if state == nil {
		return fmt.Errorf("package state was not read")
	}
	// A type another embeds stays as it is: its name is the field's.
	for _, name := range state.pkg.Scope().Names() {
		if st, ok := state.pkg.Scope().Lookup(name).Type().Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				if f := st.Field(i); f.Embedded() {
					skip[recvName(f.Type())] = true
				}
			}
		}
	}
	// The candidates: exported, declared in a file that is not a test.
	cands := map[string]string{} // key → new name
	taken := map[string]bool{}
	for _, name := range state.pkg.Scope().Names() {
		taken[name] = true
	}
	var total int
	inTest := func(obj types.Object) bool {
		return strings.HasSuffix(state.fset.Position(obj.Pos()).Filename, "_test.go")
	}
	consider := func(obj types.Object, k string) {
		if !obj.Exported() || inTest(obj) || k == "" {
			return
		}
		total++
		if used[k] || skip[k] {
			return
		}
		n := lowerName(obj.Name())
		if token.IsKeyword(n) || types.Universe.Lookup(n) != nil {
			return
		}
		cands[k] = n
	}
	for _, name := range state.pkg.Scope().Names() {
		obj := state.pkg.Scope().Lookup(name)
		k := key(obj)
		if !taken[lowerName(name)] {
			consider(obj, k)
		} else if obj.Exported() && !inTest(obj) {
			total++
		}
		tn, ok := obj.(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		for i := 0; i < named.NumMethods(); i++ {
			m := named.Method(i)
			if keepMethods[m.Name()] {
				if m.Exported() && !inTest(m) {
					total++
				}
				continue
			}
			low := lowerName(m.Name())
			if o, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, state.pkg, low); o != nil {
				if m.Exported() && !inTest(m) {
					total++
				}
				continue
			}
			// A type that embeds this one must not have the name either.
			consider(m, key(m))
		}
	}
	// Two candidates must not take one name in one scope.
	byNew := map[string][]string{}
	for k, n := range cands {
		scope := ""
		if i := strings.IndexByte(k, '.'); i >= 0 {
			scope = k[:i]
		}
		byNew[scope+"."+n] = append(byNew[scope+"."+n], k)
	}
	for _, ks := range byNew {
		if len(ks) > 1 {
			for _, k := range ks {
				delete(cands, k)
			}
		}
	}
	edits := map[string][]edit{}
	for _, c := range all {
		if c.p.ImportPath != statePath {
			continue
		}
		for _, f := range c.files {
			name := c.fset.File(f.Pos()).Name()
			add := func(id *ast.Ident, obj types.Object) {
				if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != statePath {
					return
				}
				if n, ok := cands[key(obj)]; ok && id.Name == obj.Name() {
					edits[name] = append(edits[name], edit{c.fset.Position(id.Pos()).Offset, c.fset.Position(id.End()).Offset, n})
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if obj := c.info.Defs[n]; obj != nil {
						add(n, obj)
					} else if obj := c.info.Uses[n]; obj != nil {
						add(n, obj)
					}
				case *ast.FuncDecl:
					if obj := c.info.Defs[n.Name]; obj != nil && n.Doc != nil {
						docFirst(c.fset, n.Doc, obj, cands, edits, name)
					}
				case *ast.GenDecl:
					for _, s := range n.Specs {
						var ids []*ast.Ident
						doc := n.Doc
						switch s := s.(type) {
						case *ast.TypeSpec:
							ids = []*ast.Ident{s.Name}
							if s.Doc != nil {
								doc = s.Doc
							}
						case *ast.ValueSpec:
							ids = s.Names
							if s.Doc != nil {
								doc = s.Doc
							}
						}
						if doc != nil && len(ids) == 1 && (len(n.Specs) == 1 || doc != n.Doc) {
							if obj := c.info.Defs[ids[0]]; obj != nil {
								docFirst(c.fset, doc, obj, cands, edits, name)
							}
						}
					}
				}
				return true
			})
		}
	}
	files := make([]string, 0, len(edits))
	for f := range edits {
		files = append(files, f)
	}
	sort.Strings(files)
	outs := map[string][]byte{}
	for _, f := range files {
		out, err := apply(f, dedupe(edits[f]))
		if err != nil {
			return err
		}
		outs[f] = out
	}
	for _, f := range files {
		if err := os.WriteFile(f, outs[f], 0o644); err != nil {
			return err
		}
	}
	keys := make([]string, 0, len(cands))
	for k := range cands {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "# state's exported names no other package used, made unexported (%d of %d)\n", len(keys), total)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s %s\n", k, cands[k])
	}
	fmt.Print(b.String())
	return updateTable(cands)
}

func docFirst(fset *token.FileSet, doc *ast.CommentGroup, obj types.Object, cands map[string]string, edits map[string][]edit, file string) {
	n, ok := cands[key(obj)]
	if !ok || len(doc.List) == 0 {
		return
	}
	c := doc.List[0]
	if strings.HasPrefix(c.Text, "// "+obj.Name()+" ") || c.Text == "// "+obj.Name() {
		at := fset.Position(c.Pos()).Offset + 3
		edits[file] = append(edits[file], edit{at, at + len(obj.Name()), n})
	}
}

func dedupe(es []edit) []edit {
	seen := map[edit]bool{}
	var out []edit
	for _, e := range es {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// updateTable gives the domain methods made unexported their new name in
// table.txt.
func updateTable(cands map[string]string) error {
	path := tablePath()
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		w := strings.Fields(l)
		if len(w) != 4 || strings.HasPrefix(l, "#") {
			continue
		}
		typ := w[2] + "View"
		if w[0] == "Tx" {
			typ = w[2] + "Tx"
		}
		if n, ok := cands[typ+"."+w[3]]; ok {
			lines[i] = strings.Join([]string{w[0], w[1], w[2], n}, " ")
		}
	}
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
}

// reapply is rewrite reapply: on a tree that took another branch's version
// of some of state's files, the names of unexported.txt that those files
// still call by their exported name (a name that no longer resolves) are
// given their unexported one. A package other than state that calls one
// is reported: that name is used after all, and is to be exported again.
func reapply(patterns []string) error {
	data, err := os.ReadFile(strings.TrimSuffix(tablePath(), "table.txt") + "unexported.txt")
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if w := strings.Fields(l); len(w) == 2 && !strings.HasPrefix(l, "#") {
			names[w[0]] = w[1]
		}
	}
	all, err := loadAll(patterns)
	if err != nil {
		return err
	}
	edits := map[string][]edit{}
	for _, c := range all {
		inState := c.p.ImportPath == statePath && !c.xtest
		for _, f := range c.files {
			file := c.fset.File(f.Pos()).Name()
			at := func(n ast.Node) int { return c.fset.Position(n.Pos()).Offset }
			sels := map[*ast.Ident]bool{}
			ast.Inspect(f, func(n ast.Node) bool {
				if s, ok := n.(*ast.SelectorExpr); ok {
					sels[s.Sel] = true
				}
				return true
			})
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					if _, ok := c.info.Selections[n]; ok {
						return true
					}
					if id, ok := n.X.(*ast.Ident); ok {
						if pn, ok := c.info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == statePath {
							if _, gone := names[n.Sel.Name]; gone {
								fmt.Printf("%s: state.%s is used here: export it again\n", c.fset.Position(n.Pos()), n.Sel.Name)
							}
							return true
						}
					}
					t := recvName(c.info.TypeOf(n.X))
					if nn, ok := names[t+"."+n.Sel.Name]; ok && inState && t != "" {
						edits[file] = append(edits[file], edit{at(n.Sel), at(n.Sel) + len(n.Sel.Name), nn})
					}
				case *ast.Ident:
					if !inState {
						return true
					}
					obj := c.info.Defs[n]
					if obj == nil {
						obj = c.info.Uses[n]
					}
					if obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == statePath {
						// Declared, or used, still under its exported name.
						if nn, ok := names[key(obj)]; ok && n.Name == obj.Name() {
							edits[file] = append(edits[file], edit{at(n), at(n) + len(n.Name), nn})
						}
						return true
					}
					if obj != nil || sels[n] {
						return true
					}
					if nn, ok := names[n.Name]; ok {
						edits[file] = append(edits[file], edit{at(n), at(n) + len(n.Name), nn})
					}
				}
				return true
			})
		}
	}
	for f, es := range edits {
		out, err := apply(f, dedupe(es))
		if err != nil {
			return err
		}
		if err := os.WriteFile(f, out, 0o644); err != nil {
			return err
		}
		fmt.Println("rewrote", f)
	}
	moves, err := readTable(tablePath())
	if err != nil {
		return err
	}
	return rulesMap(moves, names)
}

// rulesMap gives the names in state/doc.go's rules map rows (a file of
// state, then its names in brackets) as they are now: a moved method as
// Type.Method (table.txt), an unexported one by its new name.
func rulesMap(moves map[string]move, names map[string]string) error {
	const path = "state/doc.go"
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	now := func(x string) string {
		if m, ok := moves[x]; ok {
			typ := m.acc + "View"
			if m.recv == "Tx" {
				typ = m.acc + "Tx"
			}
			if m.acc == "ripple" {
				typ = "rippleTx"
			}
			x = typ + "." + m.name
		}
		if n, ok := names[x]; ok {
			if i := strings.IndexByte(x, '.'); i >= 0 {
				return x[:i+1] + n
			}
			return n
		}
		if strings.Contains(x, ".") {
			return x
		}
		one := ""
		for k, n := range names {
			if strings.HasSuffix(k, "."+x) {
				if one != "" && one != n {
					return x
				}
				one = n
			}
		}
		if one != "" {
			return one
		}
		return x
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "//\t§") {
			continue
		}
		parts := strings.SplitN(l, " → ", 3)
		if len(parts) != 3 {
			continue
		}
		file, list, ok := strings.Cut(parts[1], " (")
		if !ok || strings.Contains(file, "/") || !strings.HasSuffix(list, ")") {
			continue
		}
		ns := strings.Split(strings.TrimSuffix(list, ")"), ", ")
		for j, n := range ns {
			ns[j] = now(n)
		}
		lines[i] = parts[0] + " → " + file + " (" + strings.Join(ns, ", ") + ") → " + parts[2]
	}
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
}
