package cli

// conch install codex: conch's hooks in Codex's hooks.json, conch as its
// notify program in config.toml, and, with --remove, the trust Codex
// recorded for conch's hooks taken out with them.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

func (a *app) newInstallCodex() *cobra.Command {
	var o installOptions
	cmd := &cobra.Command{
		Use:   "codex [--project | --user] [--remove]",
		Short: "Put conch's hooks and notify program in Codex's configuration",
		Long: `Put conch's hooks in Codex's hooks.json, and conch as its notify program in
config.toml: in $CODEX_HOME (default ~/.codex) with --user (the default),
in .codex/ of the current folder with --project. Every hook already there
is kept and conch's own is added once; a notify program that is not
conch's is left as it is (Codex runs one; conch's Stop hook reports each
turn's end without it). The files as they were are kept beside them
(.bak-TIME), and the new ones are written whole. --remove takes out what
conch put in, and nothing else.

Codex asks you to review and trust new hooks before it runs them; older
versions run hooks only with [features] codex_hooks = true.

Exit codes: 0 done, 1 a file cannot be read, parsed or written (nothing
changed in it), 2 usage.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
	}
	o.flags(cmd, "Codex configuration")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := o.check(); err != nil {
			return err
		}
		user := a.env.Getenv("CODEX_HOME")
		if user == "" {
			user = filepath.Join(a.userHome(), ".codex")
		}
		dir := user
		if o.project {
			dir = filepath.Join(a.env.Cwd, ".codex")
		}
		config, hooksFile := filepath.Join(dir, "config.toml"), resolveLink(filepath.Join(dir, "hooks.json"))
		var trusted []string
		if o.remove {
			// Read before the handlers go: Codex keys its trust by where
			// each handler stands in the file.
			trusted = conchTrustKeys(hooksFile)
			if named := filepath.Join(dir, "hooks.json"); named != hooksFile {
				// The file is reached through a link: Codex may key it by
				// either name.
				for _, k := range conchTrustKeys(hooksFile) {
					trusted = append(trusted, named+strings.TrimPrefix(k, hooksFile))
				}
			}
		}
		// config.toml first: it is the one a person is likelier to have
		// hand-written wrong, and a failure there leaves both untouched.
		// A project's config never gets notify: Codex refuses the key
		// there, warning at every run; one an older conch put there goes.
		no := o
		no.remove = o.remove || o.project
		notify, err := a.installNotify(config, &no)
		if err != nil {
			return err
		}
		hooks, err := a.installHookFile(hooksFile, state.HarnessCodex, codexHooks, &o)
		if err != nil {
			return err
		}
		hooks.Notes = append(hooks.Notes, notify.Notes...)
		notify.Notes = nil
		done := []*installed{hooks, notify}
		if o.project && !o.remove {
			// The project's config is not conch's to fill: it is said only
			// when an older conch's notify line had to go.
			done = done[:1]
			if notify.Changed {
				hooks.Notes = append(hooks.Notes, fmt.Sprintf("%s: conch's notify taken out (the file as it was: %s); Codex takes notify only from your own config.toml", notify.File, notify.Backup))
			}
		}
		if len(trusted) > 0 {
			trust, err := a.removeTrust(filepath.Join(user, "config.toml"), trusted)
			if err != nil {
				return err
			}
			done = append(done, trust)
		}
		return a.sayInstalled(done, &o, codexTrustNote)
	})
	return cmd
}

// codexTrustNote is what a person must do after an install: Codex runs a
// hook only once it is trusted, and codex exec says nothing of the ones
// it skips.
const codexTrustNote = `Codex runs new hooks only once you trust them; codex exec skips untrusted
hooks without a word (conch then hears only each turn's end, from notify).
Trust conch's once in the TUI (codex, then /hooks and t to trust all), or
run codex exec --dangerously-bypass-hook-trust.`

// conchTrustKeys are the keys under which Codex records its trust in
// conch's handlers of the hooks file at path ([hooks.state."KEY"] in the
// user's config.toml): PATH:event_name:GROUP:HANDLER, the event in snake
// case and both indexes counted from 0 within the event's list.
func conchTrustKeys(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var file struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if json.Unmarshal(data, &file) != nil {
		return nil
	}
	var keys []string
	for event, groups := range file.Hooks {
		for gi, g := range groups {
			for hi, h := range g.Hooks {
				if isConchHook(h.Command, state.HarnessCodex) {
					keys = append(keys, fmt.Sprintf("%s:%s:%d:%d", path, snakeCase(event), gi, hi))
				}
			}
		}
	}
	return keys
}

// snakeCase is PreToolUse as pre_tool_use.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// removeTrust takes the trust entries with those keys out of Codex's
// config.toml: each [hooks.state."KEY"] table, header and lines, as Codex
// writes them; the rest of the file stays as it is.
func (a *app) removeTrust(path string, keys []string) (*installed, error) {
	path = resolveLink(path)
	res := &installed{File: path, Events: []string{"hooks.state"}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	drop := map[string]bool{}
	for _, k := range keys {
		b, _ := json.Marshal(k)
		drop["[hooks.state."+string(b)+"]"] = true
	}
	var out []string
	skipping, n := false, 0
	for _, line := range strings.SplitAfter(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			skipping = drop[t]
			if skipping {
				n++
			}
		}
		if !skipping {
			out = append(out, line)
		}
	}
	if n == 0 {
		return res, nil
	}
	text := strings.Join(out, "")
	var check map[string]any
	if _, err := toml.Decode(text, &check); err != nil {
		return nil, fmt.Errorf("%s: without conch's trust entries it would not be TOML (%v); nothing changed", path, oneLine(err.Error()))
	}
	if res.Backup, err = a.backup(path, data); err != nil {
		return nil, err
	}
	if err := writeWhole(path, []byte(text)); err != nil {
		return nil, err
	}
	res.Changed = true
	res.Notes = append(res.Notes, fmt.Sprintf("Codex's trust in conch's hooks taken out (%d entries)", n))
	return res, nil
}

// installNotify makes conch Codex's notify program in config.toml (or
// takes it out), by editing the one line, so the rest of a person's file
// (comments, order, spacing) stays as it is.
func (a *app) installNotify(path string, o *installOptions) (*installed, error) {
	path = resolveLink(path)
	res := &installed{File: path, Events: []string{"notify"}}
	data, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	var conf map[string]any
	if _, err := toml.Decode(string(data), &conf); err != nil {
		return nil, fmt.Errorf("%s is not TOML: %v; nothing changed", path, oneLine(err.Error()))
	}
	if features, ok := conf["features"].(map[string]any); ok {
		for _, k := range []string{"hooks", "codex_hooks"} {
			if on, ok := features[k].(bool); ok && !on && !o.remove {
				res.Notes = append(res.Notes, fmt.Sprintf("hooks are turned off in %s ([features] %s = false): conch hears only each turn's end until they are on", path, k))
			}
		}
	}
	current, has := conf["notify"]
	ours := has && isConchNotify(current)
	var out string
	switch {
	case o.remove && !ours:
		return res, nil
	case o.remove:
		if out, err = dropNotify(string(data)); err != nil {
			return nil, fmt.Errorf("%s: %v; nothing changed", path, err)
		}
	case ours:
		return res, nil
	case has:
		res.Notes = append(res.Notes, fmt.Sprintf("%s has a notify program of its own: left as it is; conch's Stop hook reports each turn's end", path))
		return res, nil
	default:
		prog, _ := json.Marshal(o.conch)
		line := fmt.Sprintf("notify = [%s, \"hook\", \"codex\"]  # conch: each turn's end\n", prog)
		out = line + string(data)
	}
	var check map[string]any
	if _, err := toml.Decode(out, &check); err != nil {
		return nil, fmt.Errorf("%s: the changed file would not be TOML (%v); nothing changed", path, oneLine(err.Error()))
	}
	if _, still := check["notify"]; o.remove == still {
		return nil, fmt.Errorf("%s: the notify line is not where conch can change it; nothing changed", path)
	}
	if exists {
		if res.Backup, err = a.backup(path, data); err != nil {
			return nil, err
		}
	}
	if err := writeWhole(path, []byte(out)); err != nil {
		return nil, err
	}
	res.Changed = true
	return res, nil
}

// isConchNotify says whether a notify value runs conch's Codex adapter.
func isConchNotify(v any) bool {
	list, ok := v.([]any)
	if !ok || len(list) < 3 {
		return false
	}
	var words []string
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return false
		}
		words = append(words, s)
	}
	base := filepath.Base(words[0])
	return len(words) == 3 && (base == "conch" || base == "conch.exe") && words[1] == "hook" && words[2] == state.HarnessCodex
}

// dropNotify takes the top-level notify assignment out of a TOML file:
// the line that starts it, and the lines its array runs on to.
func dropNotify(text string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			break // a table: top-level keys are all before it
		}
		if !strings.HasPrefix(t, "notify") || !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(t, "notify")), "=") {
			continue
		}
		for j := i + 1; j <= len(lines); j++ {
			var v map[string]any
			if _, err := toml.Decode(strings.Join(lines[i:j], ""), &v); err == nil {
				return strings.Join(lines[:i], "") + strings.Join(lines[j:], ""), nil
			}
		}
	}
	return "", errors.New("no notify line found")
}
