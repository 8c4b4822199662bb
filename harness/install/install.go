// Package install puts conch's part into a harness's own configuration
// (hooks in its settings, a plugin file, a notify line) and takes exactly
// that part out again, keeping every byte of the rest and a backup of each
// file it changes. It knows the harness's files, never conch's home (it
// must not open CONCH_HOME), and it prints nothing: render has its words.
//
// To add a harness's recipe, in five lines:
//  1. Write NAME.go here: var NAME = &Recipe{Name, Use, Short, Long, Where, Dir, Do, After}.
//  2. Dir is its folder for --user and --project; Do writes there with r.HookFile (JSON hooks), r.OwnFile (a file conch owns) or r.Edit.
//  3. The sentences a person reads (After, notes) go in render, in render/install_NAME.go.
//  4. Add it to Recipes below: conch install NAME then exists, with --project, --user, --remove and --conch.
//  5. Pin it in testdata/script/install_NAME.txtar: put in, again (no change), --remove (as it was), a broken file.
package install

import (
	"os/exec"
	"path/filepath"
	"time"

	"github.com/conch-sh/conch/render"
)

// Recipes are the harnesses conch installs into, in the order of help.
var Recipes = []*Recipe{
	Claude,
	Codex,
	Copilot,
	Cursor,
	OpenCode,
	Pi,
	Gemini,
	Qwen,
}

// Recipe is how conch installs itself into one harness.
type Recipe struct {
	Name  string // conch install NAME; its handlers run conch hook NAME
	Use   string // the usage line after "conch install"
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
	// After is said once something was put in: what the person does next.
	After string
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

// Result is what an install or a removal did to one file (conch help json).
type Result struct {
	File    string   `json:"file"`
	Changed bool     `json:"changed"`
	Backup  string   `json:"backup,omitempty"`
	Events  []string `json:"events"`
	Notes   []string `json:"notes,omitempty"`
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

// withMCP is done with conch's MCP server put into (or taken out of) the
// settings file at path, unless --no-mcp.
func (r *Run) withMCP(done []*Result, path string, m MCP) ([]*Result, error) {
	if r.NoMCP {
		return done, nil
	}
	res, err := r.MCPFile(path, m)
	if err != nil {
		return nil, err
	}
	return append(done, res), nil
}

// conchHome is the home conch mcp serves, for a client that passes its
// server no variable of the person's (Copilot CLI): CONCH_HOME, else
// ~/.conch.
func (e Env) conchHome() string {
	if h := e.Getenv("CONCH_HOME"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".conch")
}

// Said is what an install prints: each file's outcome and notes, then,
// once something was put in, a note when the conch program is not on
// PATH and the recipe's After.
func Said(rc *Recipe, done []*Result, o Options) string {
	lines := make([]render.InstallLine, len(done))
	changed := false
	for i, d := range done {
		lines[i] = render.InstallLine{File: d.File, Changed: d.Changed, Backup: d.Backup, Events: d.Events, Notes: d.Notes}
		changed = changed || d.Changed
	}
	missing := false
	if changed && !o.Remove {
		_, err := exec.LookPath(o.Conch)
		missing = err != nil
	}
	return render.Installed(lines, o.Remove, missing, o.Conch, rc.After)
}
