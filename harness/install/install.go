// Package install puts conch's part into a harness's own configuration
// (hooks in its settings, a plugin file, a notify line, its MCP server)
// and takes exactly that part out again, keeping every byte of the rest
// and a backup of each file it changes. It knows the harness's files,
// never conch's home (it must not open CONCH_HOME), and it says nothing:
// it answers in types (a Result for each file, its Notes), which cli says
// in render's words. It knows no harness by name: each harness's Recipe
// is part of its adapter (harness/NAME.go, Adapter.Install).
//
// To give a harness its recipe, in four lines:
//  1. In harness/NAME.go, set its adapter's Install: &install.Recipe{Use, Short, Long, Where, Dir, Do, After}.
//  2. Dir is its folder for --user and --project; Do writes there with r.HookFile (JSON hooks), r.OwnFile or r.Plugin (a file conch owns), r.Edit, and r.WithMCP.
//  3. What it says beyond a file's outcome is a Note: install's own, or a type in harness/NAME.go with its words in render (render.InstallNote).
//  4. Pin it in testdata/script/install_NAME.txtar: put in, again (no change), --remove (as it was), a broken file. conch install NAME exists once the adapter has its recipe.
package install

import (
	"path/filepath"
	"time"
)

// Recipe is how conch installs itself into one harness.
type Recipe struct {
	Use   string // the usage line after "conch install", which starts with the adapter's name
	Short string // help, one line
	Long  string // help, whole
	Where string // what --project and --user name in their help
	Runs  string // for --conch's help: "the plugin runs" ("" for "the hooks run")
	// MCP is where the harness's MCP settings are, for help ("": it has
	// none, and no --no-mcp).
	MCP string
	// Dir is the folder its files go in: the person's own (project
	// false) or the current folder's.
	Dir func(e Env, project bool) string
	// Do puts conch's part in (or, with r.Remove, takes it out), saying
	// what it did to each file, in order.
	Do func(r *Run) ([]*Result, error)
	// After is said once something was put in: what the person does next
	// (one of the harness's own sentences, kept with its recipe).
	After string
	// Check, when set, is what conch doctor warns of where sessions of the
	// harness started in e.Cwd would run none of conch's hooks (nil: none
	// to warn of).
	Check func(e Env) Note
}

// Env is what an install takes from the world outside.
type Env struct {
	Home   string              // the person's home folder
	Cwd    string              // the current folder
	Getenv func(string) string // the environment
	Now    func() time.Time    // names backups
}

// Options are the words of conch install NAME.
type Options struct {
	Project bool   // the current folder's configuration, not the person's
	Remove  bool   // take conch's part out
	Conch   string // the conch program the handlers run ("conch": on PATH)
	NoMCP   bool   // leave conch's MCP server out of the harness's MCP settings
}

// Run is one install of a recipe: where, and how.
type Run struct {
	Env
	Options
	Dir string // the recipe's folder for this run
	// kept are the files this run has kept a backup of already: a file
	// it changes twice (hooks, then the MCP server) is kept once, as it
	// was before the run.
	kept map[string]bool
	// dry: each edit is worked out and checked, and nothing written (a
	// run is tried dry first, so that a refusal in its last file leaves
	// its first unchanged too).
	dry bool
}

// Result is what an install or a removal did to one file.
type Result struct {
	File    string   // the file, as a person names it (a link's own path)
	Changed bool     // whether it changed (or, dry, would)
	Backup  string   // the file as it was, kept here ("": none)
	Events  []string // what conch's part in it reports
	Notes   []Note   // what a person should know of it beside
}

// Do runs a recipe.
func Do(rc *Recipe, e Env, o Options) ([]*Result, error) {
	dry := &Run{Env: e, Options: o, Dir: rc.Dir(e, o.Project), dry: true}
	if _, err := rc.Do(dry); err != nil {
		return nil, err
	}
	r := &Run{Env: e, Options: o, Dir: rc.Dir(e, o.Project), kept: map[string]bool{}}
	return rc.Do(r)
}

// WithMCP is done with conch's MCP server put into (or taken out of) the
// settings file at path, unless --no-mcp.
func (r *Run) WithMCP(done []*Result, path string, m MCP) ([]*Result, error) {
	if r.NoMCP {
		return done, nil
	}
	res, err := r.MCPFile(path, m)
	if err != nil {
		return nil, err
	}
	return append(done, res), nil
}

// ConchHome is the home conch mcp serves, for a client that passes its
// server no variable of the person's (Copilot CLI): CONCH_HOME, else
// ~/.conch.
func (e Env) ConchHome() string {
	if h := e.Getenv("CONCH_HOME"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".conch")
}
