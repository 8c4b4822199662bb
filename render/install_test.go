package render

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/harness/install"
)

// TestInstallNoteWords: every note an install can give (each type of
// harness and harness/install with an InstallNote method) has its words
// here, one line each, naming what it was given.
func TestInstallNoteWords(t *testing.T) {
	notes := []install.Note{
		install.NotConchs{}, install.OwnRemoved{}, install.FolderRemoved{Dir: "/p/.github"}, install.MCPNotConchs{},
		harness.ClaudeSubfolder{Cwd: "/p/in", Root: "/p"}, harness.ClaudeRoot{Root: "/p"},
		harness.ClaudeUncovered{Cwd: "/p/in", Above: "/p/.claude/settings.json"}, harness.ClaudeUncovered{Cwd: "/p/in"},
		harness.CodexHooksOff{Path: "/p/config.toml", Key: "hooks"}, harness.CodexOwnNotify{Path: "/p/config.toml"},
		harness.CodexNotifyOut{Path: "/p/config.toml", Backup: "/p/config.toml.bak-T"}, harness.CodexTrustOut{N: 3},
	}
	var have []string
	for _, n := range notes {
		typ := reflect.TypeOf(n)
		have = append(have, filepath.Base(typ.PkgPath())+"."+typ.Name())
		lines := InstallNote(n)
		if len(lines) == 0 {
			t.Errorf("%#v: no words", n)
		}
		for _, l := range lines {
			if l == "" || strings.Contains(l, "\n") {
				t.Errorf("%#v: %q is not one line", n, l)
			}
		}
		// What the note names is said.
		v := reflect.ValueOf(n)
		for i := range v.NumField() {
			if s := strings.TrimPrefix(v.Field(i).String(), "<int Value>"); s != "" && !strings.Contains(strings.Join(lines, " "), s) {
				t.Errorf("%#v: %q says nothing of %s", n, lines, typ.Field(i).Name)
			}
		}
	}
	if !strings.Contains(InstallNote(harness.CodexTrustOut{N: 3})[0], "(3 entries)") {
		t.Errorf("CodexTrustOut: %q", InstallNote(harness.CodexTrustOut{N: 3}))
	}
	declared := noteTypes(t, "../harness", "../harness/install")
	slices.Sort(declared)
	have = slices.Compact(slices.Sorted(slices.Values(have)))
	if !slices.Equal(have, declared) {
		t.Errorf("notes with words %q, notes declared %q: give each its words in InstallNote", have, declared)
	}
}

// noteTypes are the types of the packages in dirs with an InstallNote
// method, as package.Type.
func noteTypes(t *testing.T, dirs ...string) []string {
	t.Helper()
	var types []string
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range files {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv == nil || fn.Name.Name != "InstallNote" {
					continue
				}
				if id, ok := fn.Recv.List[0].Type.(*ast.Ident); ok {
					types = append(types, f.Name.Name+"."+id.Name)
				}
			}
		}
	}
	return types
}
