package state

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// floors are the layers of conch's packages, lowest first (issue 26): a
// package imports only from floors below its own, never up and never
// across. cmd → cli → harness → state → store → lock; render beside cli,
// above the domain it says; what this computer is (place, proc) and the
// text tools (fold, scrub) beside the store, under the domain; the
// install engine (harness/install), which knows a harness's files and
// never conch's home, beside the domain, under the adapters that hold
// its recipes; the hand-over's rules (internal/handover), which the
// domain reads config.toml by and cmd/conch acts on as it starts, at the
// bottom.
var floors = []struct {
	floor int
	dirs  []string
}{
	{0, []string{"lock", "state/codec", "state/place", "state/proc", "state/fold", "state/digest", "state/store/natsstore/join", "internal/handover"}},
	{1, []string{"state/scrub", "state/store", "state/store/natsstore/hub", "internal/handover/early"}},
	{2, []string{"state/store/natsstore", "state/store/storetest", "state/store/natsstore/natstest"}},
	{3, []string{"state", "harness/install"}},
	{4, []string{"harness", "internal/benchhome"}},
	{5, []string{"render"}},
	{7, []string{"cli"}},
	{8, []string{"cli/natsbackend"}},
	{9, []string{"cli/mcpserver"}},
	{10, []string{"cmd/conch", "cmd/conch-nats", "cmd/conch-mcp", "cmd/conch-hub"}},
}

// upstairs are the imports that still go against the floors, each with
// the work that takes it away. The test fails when one is gone, so the
// list only shrinks.
var upstairs = map[string]string{}

// TestFloors holds every package of the module to its floor.
func TestFloors(t *testing.T) {
	const module = "github.com/conch-sh/conch/"
	floorOf := map[string]int{}
	for _, f := range floors {
		for _, d := range f.dirs {
			floorOf[d] = f.floor
		}
	}
	imports := map[string]map[string]bool{}
	fset := token.NewFileSet()
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
		dir, _ := filepath.Rel("..", filepath.Dir(p))
		dir = filepath.ToSlash(dir)
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if imports[dir] == nil {
			imports[dir] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(path, module) {
				imports[dir][strings.TrimPrefix(path, module)] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for dir, deps := range imports {
		mine, ok := floorOf[dir]
		if !ok {
			if !strings.HasPrefix(dir, "testdata") && dir != "cli/e2e" {
				t.Errorf("%s has no floor: give it one in floors", dir)
			}
			continue
		}
		for dep := range deps {
			theirs, ok := floorOf[dep]
			if !ok {
				continue // reported as its own package
			}
			if theirs < mine {
				continue
			}
			what := dir + " imports " + dep
			if _, known := upstairs[what]; known {
				seen[what] = true
				continue
			}
			t.Errorf("%s: floor %d imports floor %d, against the floors", what, mine, theirs)
		}
	}
	for what, why := range upstairs {
		if !seen[what] {
			t.Errorf("%q is gone: take it out of upstairs (%s)", what, why)
		}
	}
}
