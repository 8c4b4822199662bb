package cli

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

// The events conch hooks in Gemini CLI (its own names; tool events match
// every tool, PreCompress only /compress: Gemini CLI fires "auto" before
// every model request) and in Qwen Code (Claude Code's).
var (
	geminiHooks = []hookSpec{
		{"SessionStart", ""}, {"BeforeAgent", ""}, {"BeforeTool", "*"}, {"AfterTool", "*"},
		{"AfterAgent", ""}, {"Notification", ""}, {"PreCompress", "manual"}, {"SessionEnd", ""},
	}
	qwenHooks = []hookSpec{
		{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PreToolUse", "*"}, {"PostToolUse", "*"},
		{"PostToolUseFailure", "*"}, {"PermissionRequest", "*"}, {"Notification", ""}, {"PreCompact", ""},
		{"Stop", ""}, {"StopFailure", ""}, {"SubagentStart", ""}, {"SubagentStop", ""}, {"SessionEnd", ""},
	}
)

func (a *app) newInstallGemini() *cobra.Command {
	return a.newInstallSettings(state.HarnessGemini, ".gemini", geminiHooks,
		"Put conch's hooks in Gemini CLI's settings",
		`Put conch's hooks in Gemini CLI's settings: ~/.gemini/settings.json with
--user (the default), .gemini/settings.json of the current folder with
--project (Gemini CLI runs a project's hooks only in a trusted folder, and
warns once when they are new). Every hook and setting already there is
kept; conch's own (a command "conch hook gemini", its timeout in
milliseconds) is added once, so running it again changes nothing. The
file as it was is kept beside it (settings.json.bak-TIME), and the new
one is written whole, never half. --remove takes out conch's hooks and
nothing else. Gemini CLI reads the hooks when a session starts.

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
		"Gemini CLI reads them when a session starts; a project's hooks run only in a trusted folder.")
}

func (a *app) newInstallQwen() *cobra.Command {
	return a.newInstallSettings(state.HarnessQwen, ".qwen", qwenHooks,
		"Put conch's hooks in Qwen Code's settings",
		`Put conch's hooks in Qwen Code's settings: ~/.qwen/settings.json with
--user (the default), .qwen/settings.json of the current folder with
--project (Qwen Code runs a project's hooks only in a trusted folder).
Every hook and setting already there is kept; conch's own (a command
"conch hook qwen") is added once, so running it again changes nothing.
The file as it was is kept beside it (settings.json.bak-TIME), and the new
one is written whole, never half. --remove takes out conch's hooks and
nothing else. Qwen Code reads the hooks when a session starts (or when
its /hooks menu is opened).

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
		"Qwen Code reads them when a session starts; a project's hooks run only in a trusted folder.")
}

// newInstallSettings is conch install NAME for a harness whose hooks live
// in a settings.json in DIR (~/DIR, or DIR of the current folder).
func (a *app) newInstallSettings(harness, dir string, specs []hookSpec, short, long, after string) *cobra.Command {
	var o installOptions
	cmd := &cobra.Command{
		Use:         harness + " [--project | --user] [--remove]",
		Short:       short,
		Long:        long,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
	}
	o.flags(cmd, dir+"/settings.json")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := o.check(); err != nil {
			return err
		}
		path := filepath.Join(a.userHome(), dir, "settings.json")
		if o.project {
			path = filepath.Join(a.env.Cwd, dir, "settings.json")
		}
		res, err := a.installHookFile(path, harness, specs, &o)
		if err != nil {
			return err
		}
		return a.sayInstalled([]*installed{res}, &o, after)
	})
	return cmd
}
