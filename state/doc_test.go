package state

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRulesMap holds the package comment's rules map to the tree: every
// row names a SPEC section, a file that exists, functions (or types,
// constants) declared in it, and testscripts (or test files) that exist;
// and every section of SPEC with rules, §1 to §13, has a row.
func TestRulesMap(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`^\t(§\d+)\s+(.+?)\s+→ (\S+) \(([^)]+)\) → (.+)$`)
	sections := map[string]bool{}
	rows := 0
	for _, c := range f.Doc.List {
		line := strings.TrimPrefix(c.Text, "//")
		if !strings.HasPrefix(line, "\t§") {
			continue
		}
		m := row.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("a row not of the form §N rule → file.go (Func) → script: %q", line)
			continue
		}
		rows++
		sections[m[1]] = true
		src := fromRoot(m[3])
		data, err := os.ReadFile(src)
		if err != nil {
			t.Errorf("%s %s: %v", m[1], m[2], err)
			continue
		}
		for _, name := range strings.Split(m[4], ", ") {
			q := regexp.QuoteMeta(name)
			decl := regexp.MustCompile(`(?m)^((func (\([^)]*\) )?|type |const |var )` + q + `\b|\t` + q + `\s+(\S+\s+)?=)`)
			if typ, method, ok := strings.Cut(name, "."); ok {
				// A domain type's method: MessagesTx.Send.
				decl = regexp.MustCompile(`(?m)^func \(\w+ \*?` + regexp.QuoteMeta(typ) + `\) ` + regexp.QuoteMeta(method) + `\b`)
			}
			if !decl.Match(data) {
				t.Errorf("%s %s: %s declares no %s", m[1], m[2], m[3], name)
			}
		}
		for _, s := range strings.Split(m[5], ", ") {
			p := filepath.Join("..", "testdata", "script", s+".txtar")
			if strings.Contains(s, "/") {
				p = filepath.Join("..", s)
			}
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s %s: no %s", m[1], m[2], p)
			}
		}
	}
	for i := 1; i <= 13; i++ {
		if s := "§" + strconv.Itoa(i); !sections[s] {
			t.Errorf("no row for SPEC %s", s)
		}
	}
	if rows < 50 {
		t.Errorf("only %d rows: the map was not read", rows)
	}
}

// fromRoot is a map's path as a path from here: a bare file name is in
// state/, a path is from the repository's root.
func fromRoot(p string) string {
	if strings.Contains(p, "/") {
		return filepath.Join("..", p)
	}
	return p
}
