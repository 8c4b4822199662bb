package cli

// conch install NAME: one command per adapter's recipe (harness.Adapters,
// each its Install), which package install runs; this file only reads the
// words and says the answer in render's.

import (
	"io"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/render"
)

// installOptions are the words of conch install NAME.
type installOptions struct {
	recipe                *install.Recipe
	project, user, remove bool
	noMCP                 bool
	conch                 string // the program the hooks run

	IO  *render.Printer
	Env install.Env // the person's home, the folder, the environment, the clock
}

// newInstallCommands are conch install's commands, one per adapter with
// a recipe, and conch install mcp.
func newInstallCommands(a *app) []*cobra.Command {
	cmds := make([]*cobra.Command, 0, len(harness.Adapters)+1)
	for _, h := range harness.Adapters {
		if h.Install != nil {
			cmds = append(cmds, newInstall(a, h, nil))
		}
	}
	return append(cmds, newInstallMCP(a, nil))
}

// installMCPOptions are the words of conch install mcp.
type installMCPOptions struct {
	print bool
	conch string

	Out io.Writer // where the block goes
}

// newInstallMCP is conch install mcp --print; runF, when not nil, gets the
// checked options instead of the run (for tests).
func newInstallMCP(a *app, runF func(*installMCPOptions) error) *cobra.Command {
	o := &installMCPOptions{}
	cmd := &cobra.Command{
		Use:   "mcp --print [--conch PATH]",
		Short: "Print the JSON block that adds conch's MCP server to any MCP client",
		Long: `Print the JSON block that adds conch's MCP server (conch mcp) to an MCP
client conch has no recipe for: most read it under "mcpServers" in their
settings. conch install NAME puts the server into the MCP settings of the
harnesses it knows (--no-mcp leaves it out).

Exit codes: 0 done, 2 usage (no --print: conch knows no file of the
client's).`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
	}
	cmd.Flags().BoolVar(&o.print, "print", false, "print the block")
	cmd.Flags().StringVar(&o.conch, "conch", "conch", "the conch program the client runs (default: conch, found on PATH)")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if !o.print {
			return usage("conch install mcp takes --print: conch knows no file of that client's; add the block to its MCP settings")
		}
		if strings.TrimSpace(o.conch) == "" || strings.ContainsAny(o.conch, "\n\r") {
			return usage("--conch %q: want a program's name or path", o.conch)
		}
		if runF != nil {
			return runF(o)
		}
		o.Out = a.env.Out
		return runInstallMCP(o)
	})
	return cmd
}

// runInstallMCP prints the block.
func runInstallMCP(o *installMCPOptions) error {
	_, err := io.WriteString(o.Out, install.MCPBlock(o.conch))
	return err
}

// newInstall is conch install NAME for the recipe of harness h; runF, when
// not nil, gets the checked options instead of the install (for tests).
func newInstall(a *app, h *harness.Adapter, runF func(*installOptions) error) *cobra.Command {
	r := h.Install
	o := &installOptions{recipe: r}
	long := r.Long
	if r.MCP != "" {
		long = strings.Replace(long, "\n\nExit codes:", "\n\nconch's MCP server (conch mcp, its tools for the agent) goes into "+r.MCP+
			" too, kept and taken out like the hooks; --no-mcp leaves it out.\n\nExit codes:", 1)
	}
	cmd := &cobra.Command{
		Use:         r.Use,
		Short:       r.Short,
		Long:        long,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
	}
	f := cmd.Flags()
	f.BoolVar(&o.project, "project", false, "this project's "+r.Where+" (in the current folder)")
	f.BoolVar(&o.user, "user", false, "your own "+r.Where+" (the default)")
	f.BoolVar(&o.remove, "remove", false, "take out what conch put in, and nothing else")
	runs := r.Runs
	if runs == "" {
		runs = "the hooks run"
	}
	f.StringVar(&o.conch, "conch", "conch", "the conch program "+runs+" (default: conch, found on PATH)")
	if r.MCP != "" {
		f.BoolVar(&o.noMCP, "no-mcp", false, "leave conch's MCP server out of "+r.MCP)
	}
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := o.check(); err != nil {
			return err
		}
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Env = a.printer(), installEnv(a)
		return runInstall(o)
	})
	return cmd
}

func (o *installOptions) check() error {
	if o.project && o.user {
		return usage("give --project or --user, not both")
	}
	if strings.TrimSpace(o.conch) == "" || strings.ContainsAny(o.conch, "\n\r") {
		return usage("--conch %q: want a program's name or path", o.conch)
	}
	return nil
}

// runInstall runs the recipe and says what it did to each file.
func runInstall(o *installOptions) error {
	opts := install.Options{Project: o.project, Remove: o.remove, Conch: o.conch, NoMCP: o.noMCP}
	done, err := install.Do(o.recipe, o.Env, opts)
	if err != nil {
		return err
	}
	lines := installLines(done)
	said := installSaid(o.recipe, lines, opts)
	if len(lines) == 1 {
		return o.IO.Value(lines[0], said)
	}
	return o.IO.Value(lines, said)
}

// installLines are what an install did to each file, its notes in words.
func installLines(done []*install.Result) []render.InstallLine {
	lines := make([]render.InstallLine, len(done))
	for i, d := range done {
		lines[i] = render.InstallLine{File: d.File, Changed: d.Changed, Backup: d.Backup, Events: d.Events}
		for _, n := range d.Notes {
			lines[i].Notes = append(lines[i].Notes, render.InstallNote(n)...)
		}
	}
	return lines
}

// installSaid is what an install prints: each file's outcome and notes,
// then, once something was put in, a note when the conch program is not
// on PATH and the recipe's After.
func installSaid(rc *install.Recipe, lines []render.InstallLine, o install.Options) string {
	changed := false
	for _, l := range lines {
		changed = changed || l.Changed
	}
	missing := false
	if changed && !o.Remove {
		_, err := exec.LookPath(o.Conch)
		missing = err != nil
	}
	return render.Installed(lines, o.Remove, missing, o.Conch, rc.After)
}

// installEnv is what an install takes from this run.
func installEnv(a *app) install.Env {
	now, err := a.clock()
	if err != nil {
		now = a.env.Now // a CONCH_NOW that is not a time names no backup
	}
	return install.Env{Home: a.userHome(), Cwd: a.env.Cwd, Getenv: a.env.Getenv, Now: now}
}
