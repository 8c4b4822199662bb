package install

// conch install codex: conch's hooks in Codex's hooks.json, conch as its
// notify program in config.toml, and, with --remove, the trust Codex
// recorded for conch's hooks taken out with them.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/conch-sh/conch/render"
)

// Codex is conch install codex.
var Codex = &Recipe{
	Name:  "codex",
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
	MCP:   "config.toml, [mcp_servers.conch]",
	Where: "Codex configuration",
	Dir: func(e Env, project bool) string {
		if project {
			return filepath.Join(e.Cwd, ".codex")
		}
		return codexHome(e)
	},
	Do:    codexDo,
	After: render.CodexAfter,
}

// codexHome is the person's Codex folder: $CODEX_HOME, else ~/.codex.
func codexHome(e Env) string {
	if d := e.Getenv("CODEX_HOME"); d != "" {
		return d
	}
	return filepath.Join(e.Home, ".codex")
}

// codexHooks are conch's hooks in Codex's hooks.json. A missing matcher
// matches every tool. SessionEnd and Interrupt carry 3 s, which Codex
// 0.169 clamps them to, warning at every run.
func codexHooks(conch string) Hooks {
	h := Hooks{Harness: "codex", Command: Command(conch, "codex")}
	for _, name := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
		"PermissionRequest", "PreCompact", "Stop", "Interrupt", "SessionEnd"} {
		e := Event{Name: name, Timeout: HookTimeout}
		if name == "SessionEnd" || name == "Interrupt" {
			e.Timeout = 3
		}
		h.Events = append(h.Events, e)
	}
	return h
}

func codexDo(r *Run) ([]*Result, error) {
	user := codexHome(r.Env)
	config, hooksFile := filepath.Join(r.Dir, "config.toml"), link(filepath.Join(r.Dir, "hooks.json"))
	var trusted []string
	if r.Remove {
		// Read before the handlers go: Codex keys its trust by where
		// each handler stands in the file.
		trusted = conchTrustKeys(hooksFile)
		if named := filepath.Join(r.Dir, "hooks.json"); named != hooksFile {
			// The file is reached through a link: Codex may key it by
			// either name.
			for _, k := range conchTrustKeys(hooksFile) {
				trusted = append(trusted, named+strings.TrimPrefix(k, hooksFile))
			}
		}
	}
	// config.toml first: it is the one a person is likelier to have
	// hand-written wrong, and a failure there leaves both untouched. A
	// project's config never gets notify: Codex refuses the key there,
	// warning at every run; one an older conch put there goes.
	no := *r
	no.Remove = r.Remove || r.Project
	notify, err := no.codexNotify(config)
	if err != nil {
		return nil, err
	}
	hooks, err := r.HookFile(hooksFile, codexHooks(r.Conch))
	if err != nil {
		return nil, err
	}
	hooks.Notes = append(hooks.Notes, notify.Notes...)
	notify.Notes = nil
	done := []*Result{hooks, notify}
	if r.Project && !r.Remove {
		// The project's config is not conch's to fill: it is said only
		// when an older conch's notify line had to go.
		done = done[:1]
		if notify.Changed {
			hooks.Notes = append(hooks.Notes, render.CodexNotifyOut(notify.File, notify.Backup))
		}
	}
	if !r.NoMCP {
		mcp, err := r.codexMCP(config)
		if err != nil {
			return nil, err
		}
		done = append(done, mcp)
	}
	if len(trusted) > 0 {
		trust, err := r.removeTrust(filepath.Join(user, "config.toml"), trusted)
		if err != nil {
			return nil, err
		}
		done = append(done, trust)
	}
	return done, nil
}

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
				if IsConchCommand(h.Command, "codex") {
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
func (r *Run) removeTrust(path string, keys []string) (*Result, error) {
	res := &Result{File: path, Events: []string{"hooks.state"}}
	headers := make([]string, len(keys))
	for i, k := range keys {
		b, _ := json.Marshal(k)
		headers[i] = "[hooks.state." + string(b) + "]"
	}
	n := 0
	err := r.Edit(res, func(data []byte, exists bool) ([]byte, bool, error) {
		if !exists {
			return nil, false, nil
		}
		var out string
		out, n = dropTables(string(data), headers)
		if n == 0 {
			return nil, false, nil
		}
		if err := checkTOML(out); err != nil {
			return nil, false, fmt.Errorf("without conch's trust entries it would not be TOML (%v)", err)
		}
		return []byte(out), true, nil
	})
	if err != nil {
		return nil, err
	}
	if res.Changed {
		res.Notes = append(res.Notes, render.CodexTrustOut(n))
	}
	return res, nil
}

// codexNotify makes conch Codex's notify program in config.toml (or
// takes it out), by editing the one line, so the rest of a person's file
// (comments, order, spacing) stays as it is.
func (r *Run) codexNotify(path string) (*Result, error) {
	res := &Result{File: path, Events: []string{"notify"}}
	err := r.Edit(res, func(data []byte, exists bool) ([]byte, bool, error) {
		conf, err := decodeTOML(string(data))
		if err != nil {
			return nil, false, predicate{fmt.Errorf("is not TOML: %v", err)}
		}
		if features, ok := conf["features"].(map[string]any); ok && !r.Remove {
			for _, k := range []string{"hooks", "codex_hooks"} {
				if on, ok := features[k].(bool); ok && !on {
					res.Notes = append(res.Notes, render.CodexHooksOff(res.File, k))
				}
			}
		}
		current, has := conf["notify"]
		ours := has && isConchNotify(current)
		var out string
		switch {
		case r.Remove && !ours, ours && !r.Remove:
			return nil, false, nil
		case r.Remove:
			var ok bool
			if out, ok = dropTopKey(string(data), "notify"); !ok {
				return nil, false, fmt.Errorf("no notify line found")
			}
		case has:
			res.Notes = append(res.Notes, render.CodexOwnNotify(res.File))
			return nil, false, nil
		default:
			prog, _ := json.Marshal(r.Conch)
			out = fmt.Sprintf("notify = [%s, \"hook\", \"codex\"]  # conch: each turn's end\n", prog) + string(data)
		}
		check, err := decodeTOML(out)
		if err != nil {
			return nil, false, fmt.Errorf("the changed file would not be TOML (%v)", err)
		}
		if _, still := check["notify"]; r.Remove == still {
			return nil, false, fmt.Errorf("the notify line is not where conch can change it")
		}
		return []byte(out), true, nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// isConchNotify says whether a notify value runs conch's Codex adapter.
func isConchNotify(v any) bool {
	list, ok := v.([]any)
	if !ok {
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
	return isConchWords(words, "codex")
}
