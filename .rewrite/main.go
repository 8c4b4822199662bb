// Command rewrite moves the methods of state's *Tx and *View to the small
// domain types of state/domains.go (issue 26 item 3), and rewrites every
// call of them: tx.SendMessage(...) becomes tx.Messages().Send(...).
//
// It reads table.txt (receiver, old name, accessor, new name) and works
// from types, not names: only a selector whose operand is a state.Tx or a
// state.View (or a pointer to one) is rewritten, so a field or a method of
// another type with the same name is left alone. It can be run again at
// any time, on any tree: a call already rewritten names no old method (an
// accessor called with no arguments, Claims(), is never taken for the old
// Claims(a)). Run it from the module's root:
//
//	cd .rewrite && go build -o /tmp/conch-rewrite . && cd .. && /tmp/conch-rewrite [packages]
//
// with the packages as go list takes them (./... when none).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

const statePath = "github.com/conch-sh/conch/state"

// receivers are the domain types' receiver names in state, one per type.
var receivers = map[string]string{
	"rippleTx": "ri", "MessagesView": "d", "MessagesTx": "dom", "TopView": "t", "RequestsView": "re",
	"LogTx": "lo", "LogView": "l", "ChatsView": "ch", "ChatsTx": "dom", "WakesTx": "w", "WakesView": "w",
	"NotesView": "d", "NotesTx": "d", "SessionsTx": "s", "SessionsView": "s", "ClaimsView": "dom",
	"WaitsView": "wa", "WaitsTx": "wa", "RepliesTx": "re", "ClaimsTx": "dom", "TasksTx": "ta",
	"TasksView": "ta", "RequestsTx": "re", "RepliesView": "r",
}

type move struct {
	recv, old, acc, name string
}

type listed struct {
	ImportPath   string
	Dir          string
	Name         string
	Export       string
	ForTest      string
	GoFiles      []string
	CgoFiles     []string
	TestGoFiles  []string
	XTestGoFiles []string
	Module       *struct{ Path string }
}

type edit struct {
	at, end int
	text    string
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "rewrite:", err)
		os.Exit(1)
	}
}

func run(patterns []string) error {
	if len(patterns) > 0 && patterns[0] == "unexport" {
		skip := map[string]bool{}
		for _, k := range strings.Split(os.Getenv("CONCH_REWRITE_KEEP"), ",") {
			skip[k] = true
		}
		return unexport([]string{"./..."}, skip)
	}
	if len(patterns) > 0 && patterns[0] == "reapply" {
		return reapply([]string{"./..."})
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	moves, err := readTable(tablePath())
	if err != nil {
		return err
	}
	pkgs, err := goList(patterns)
	if err != nil {
		return err
	}
	exports := map[string]string{}
	for _, p := range pkgs {
		if p.Export != "" {
			exports[p.ImportPath] = p.Export
		}
	}
	edits := map[string][]edit{}
	for _, p := range pkgs {
		if p.ForTest != "" || p.Module == nil || p.Module.Path != "github.com/conch-sh/conch" || strings.HasSuffix(p.ImportPath, ".test") {
			continue
		}
		if !wanted(p, patterns) {
			continue
		}
		in := append(append(append([]string{}, p.GoFiles...), p.CgoFiles...), p.TestGoFiles...)
		if err := check(p, in, p.ImportPath, exports, moves, edits); err != nil {
			return err
		}
		if len(p.XTestGoFiles) > 0 {
			if err := check(p, p.XTestGoFiles, p.ImportPath, exports, moves, edits); err != nil {
				return err
			}
		}
	}
	files := make([]string, 0, len(edits))
	for f := range edits {
		files = append(files, f)
	}
	sort.Strings(files)
	outs := map[string][]byte{}
	for _, f := range files {
		out, err := apply(f, edits[f])
		if err != nil {
			return err
		}
		outs[f] = out
	}
	for _, f := range files {
		if err := os.WriteFile(f, outs[f], 0o644); err != nil {
			return err
		}
		fmt.Println("rewrote", f)
	}
	return nil
}

func tablePath() string {
	if p := os.Getenv("CONCH_REWRITE_TABLE"); p != "" {
		return p
	}
	if _, err := os.Stat(".rewrite/table.txt"); err == nil {
		return ".rewrite/table.txt"
	}
	return "table.txt"
}

// wanted: go list -deps lists every dependency; only the packages the
// patterns name are rewritten.
var named map[string]bool

func wanted(p listed, patterns []string) bool {
	if named == nil {
		named = map[string]bool{}
		out, err := exec.Command("go", append([]string{"list", "-e"}, patterns...)...).Output()
		if err == nil {
			for _, l := range strings.Fields(string(out)) {
				named[l] = true
			}
		}
	}
	return named[p.ImportPath]
}

func readTable(path string) (map[string]move, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	moves := map[string]move{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		w := strings.Fields(line)
		if len(w) != 4 || (w[0] != "Tx" && w[0] != "View") {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		if _, dup := moves[w[1]]; dup {
			return nil, fmt.Errorf("%s: %s twice", path, w[1])
		}
		moves[w[1]] = move{recv: w[0], old: w[1], acc: w[2], name: w[3]}
	}
	return moves, sc.Err()
}

func goList(patterns []string) ([]listed, error) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-export", "-deps", "-test", "-json"}, patterns...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// check type-checks files of p (errors are expected when a file still
// calls the old names, and are passed over) and collects the edits.
func check(p listed, names []string, forTest string, exports map[string]string, moves map[string]move, edits map[string][]edit) error {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, n), nil, parser.ParseComments)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	lookup := func(path string) (io.ReadCloser, error) {
		e := exports[path+" ["+forTest+".test]"]
		if e == "" {
			e = exports[path]
		}
		if e == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(e)
	}
	nerr := 0
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup), Error: func(err error) {
		if nerr++; nerr < 4 && os.Getenv("REWRITE_DEBUG") != "" {
			fmt.Fprintln(os.Stderr, err)
		}
	}}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	path := p.ImportPath
	if strings.HasSuffix(files[0].Name.Name, "_test") {
		path += "_test"
	}
	conf.Check(path, fset, files, info)
	inState := p.ImportPath == statePath && files[0].Name.Name == "state"
	for _, f := range files {
		name := fset.File(f.Pos()).Name()
		off := func(pos token.Pos) int { return fset.Position(pos).Offset }
		line := func(pos token.Pos) int { return fset.Position(pos).Line }
		bare := map[*ast.SelectorExpr]bool{} // the Fun of a call with no arguments
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && len(c.Args) == 0 {
				if s, ok := c.Fun.(*ast.SelectorExpr); ok {
					bare[s] = true
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if inState {
					if e := moveDecl(n, moves, off, line); e != nil {
						edits[name] = append(edits[name], e...)
					}
				}
			case *ast.SelectorExpr:
				m, ok := moves[n.Sel.Name]
				if !ok || !isTxOrView(info.TypeOf(n.X)) {
					return true
				}
				if bare[n] && isAccessor(n.Sel.Name, moves) {
					return true // already the accessor
				}
				if tv, ok := info.Types[n.X]; ok && tv.IsType() {
					// A method expression, (*state.Tx).PassMessage: a
					// function literal that calls the method where it is now.
					if lit := methodExpr(n, m, info, f); lit != "" {
						edits[name] = append(edits[name], edit{off(n.Pos()), off(n.End()), lit})
					}
					return false
				}
				edits[name] = append(edits[name], edit{off(n.Sel.Pos()), off(n.Sel.End()), m.acc + "()." + m.name})
			}
			return true
		})
	}
	return nil
}

func isAccessor(name string, moves map[string]move) bool {
	for _, m := range moves {
		if m.acc == name {
			return true
		}
	}
	return false
}

func isTxOrView(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != statePath {
		return false
	}
	return n.Obj().Name() == "Tx" || n.Obj().Name() == "View"
}

// moveDecl rewrites func (tx *Tx) Old(...) { body } as
// func (d AccTx) New(...) { tx := d.tx; body }: the body is unchanged.
func moveDecl(fd *ast.FuncDecl, moves map[string]move, off, line func(token.Pos) int) []edit {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Body == nil {
		return nil
	}
	star, ok := fd.Recv.List[0].Type.(*ast.StarExpr)
	if !ok {
		return nil
	}
	id, ok := star.X.(*ast.Ident)
	if !ok || (id.Name != "Tx" && id.Name != "View") {
		return nil
	}
	m, ok := moves[fd.Name.Name]
	if !ok || m.recv != id.Name {
		return nil
	}
	if fd.Type.Params.NumFields() == 0 && isAccessor(fd.Name.Name, moves) {
		return nil // the accessor itself (state/domains.go)
	}
	typ, field := m.acc+"View", "v"
	if id.Name == "Tx" {
		typ, field = m.acc+"Tx", "tx"
	}
	if m.acc == "ripple" {
		typ = "rippleTx"
	}
	old := ""
	if len(fd.Recv.List[0].Names) == 1 {
		old = fd.Recv.List[0].Names[0].Name
	}
	used := map[string]bool{}
	ast.Inspect(fd, func(n ast.Node) bool {
		if i, ok := n.(*ast.Ident); ok {
			used[i.Name] = true
		}
		return true
	})
	recv := strings.ToLower(m.acc[:1])
	for _, c := range []string{receivers[typ], recv, recv + recv, "dom", "on"} {
		if c != "" && !used[c] {
			recv = c
			break
		}
	}
	var es []edit
	es = append(es, edit{off(fd.Recv.Opening) + 1, off(fd.Recv.Closing), recv + " " + typ})
	es = append(es, edit{off(fd.Name.Pos()), off(fd.Name.End()), m.name})
	usesRecv := false
	if old != "" && old != "_" {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				ast.Inspect(s.X, func(n ast.Node) bool {
					if i, ok := n.(*ast.Ident); ok && i.Name == old {
						usesRecv = true
					}
					return true
				})
				return false
			}
			if i, ok := n.(*ast.Ident); ok && i.Name == old {
				usesRecv = true
			}
			return true
		})
	}
	if usesRecv {
		prelude := "\n" + old + " := " + recv + "." + field
		if len(fd.Body.List) > 0 && line(fd.Body.List[0].Pos()) == line(fd.Body.Lbrace) {
			prelude += "\n" // a body on one line
		}
		es = append(es, edit{off(fd.Body.Lbrace) + 1, off(fd.Body.Lbrace) + 1, prelude})
	}
	if fd.Doc != nil && len(fd.Doc.List) > 0 {
		c := fd.Doc.List[0]
		if strings.HasPrefix(c.Text, "// "+m.old+" ") || c.Text == "// "+m.old {
			at := off(c.Pos()) + 3
			es = append(es, edit{at, at + len(m.old), m.name})
		}
	}
	return es
}

func apply(path string, es []edit) ([]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sort.Slice(es, func(i, j int) bool { return es[i].at > es[j].at })
	last := len(src) + 1
	for _, e := range es {
		if e.end > last {
			return nil, fmt.Errorf("%s: edits overlap at %d", path, e.at)
		}
		src = append(src[:e.at:e.at], append([]byte(e.text), src[e.end:]...)...)
		last = e.at
	}
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// methodExpr is a function literal standing for the method expression
// sel, (*state.Tx).Old: func(tx *state.Tx, p1 T1, ...) R { return tx.Acc().New(p1, ...) }.
// The signature is the old method's, or (on a tree where it is gone) the
// new one's.
func methodExpr(sel *ast.SelectorExpr, m move, info *types.Info, f *ast.File) string {
	recvT := info.TypeOf(sel.X)
	if recvT == nil {
		return ""
	}
	var params []*types.Var
	var results *types.Tuple
	variadic := false
	if sig, ok := info.TypeOf(sel).(*types.Signature); ok && sig.Params().Len() > 0 {
		for i := 1; i < sig.Params().Len(); i++ {
			params = append(params, sig.Params().At(i))
		}
		results, variadic = sig.Results(), sig.Variadic()
	} else {
		pkg := namedPkg(recvT)
		acc, _, _ := types.LookupFieldOrMethod(recvT, true, pkg, m.acc)
		af, ok := acc.(*types.Func)
		if !ok || af.Signature().Results().Len() != 1 {
			return ""
		}
		meth, _, _ := types.LookupFieldOrMethod(af.Signature().Results().At(0).Type(), true, pkg, m.name)
		mf, ok := meth.(*types.Func)
		if !ok {
			return ""
		}
		sig := mf.Signature()
		for i := 0; i < sig.Params().Len(); i++ {
			params = append(params, sig.Params().At(i))
		}
		results, variadic = sig.Results(), sig.Variadic()
	}
	q := func(p *types.Package) string {
		if f.Name.Name == "state" && p.Path() == statePath {
			return ""
		}
		for _, im := range f.Imports {
			if strings.Trim(im.Path.Value, `"`) == p.Path() && im.Name != nil {
				return im.Name.Name
			}
		}
		return p.Name()
	}
	list := []string{"tx " + types.TypeString(recvT, q)}
	var args []string
	for i, v := range params {
		ts := types.TypeString(v.Type(), q)
		a := fmt.Sprintf("p%d", i+1)
		if variadic && i == len(params)-1 {
			ts = "..." + types.TypeString(v.Type().(*types.Slice).Elem(), q)
			args = append(args, a+"...")
		} else {
			args = append(args, a)
		}
		list = append(list, a+" "+ts)
	}
	var rs []string
	for i := 0; i < results.Len(); i++ {
		rs = append(rs, types.TypeString(results.At(i).Type(), q))
	}
	res := strings.Join(rs, ", ")
	if len(rs) > 1 {
		res = "(" + res + ")"
	}
	call := "tx." + m.acc + "()." + m.name + "(" + strings.Join(args, ", ") + ")"
	if len(rs) > 0 {
		call = "return " + call
	}
	return "func(" + strings.Join(list, ", ") + ") " + res + " { " + call + " }"
}

func namedPkg(t types.Type) *types.Package {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Pkg()
	}
	return nil
}

// typeCheck type-checks files of p against the export data go list built
// (errors are passed over: a file may still call names that are gone).
func typeCheck(p listed, names []string, exports map[string]string) (*checked, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, n), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	forTest := p.ImportPath
	lookup := func(path string) (io.ReadCloser, error) {
		e := exports[path+" ["+forTest+".test]"]
		if e == "" {
			e = exports[path]
		}
		if e == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(e)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup), Error: func(error) {}}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	path := p.ImportPath
	if strings.HasSuffix(files[0].Name.Name, "_test") {
		path += "_test"
	}
	pkg, _ := conf.Check(path, fset, files, info)
	return &checked{p: p, fset: fset, files: files, info: info, pkg: pkg}, nil
}
