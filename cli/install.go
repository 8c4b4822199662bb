package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/google/renameio/v2"
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

type installOptions struct {
	project, user, remove bool
	conch                 string // the program the hooks run
}

func (o *installOptions) flags(cmd *cobra.Command, where string) {
	f := cmd.Flags()
	f.BoolVar(&o.project, "project", false, "this project's "+where+" (in the current folder)")
	f.BoolVar(&o.user, "user", false, "your own "+where+" (the default)")
	f.BoolVar(&o.remove, "remove", false, "take out what conch put in, and nothing else")
	f.StringVar(&o.conch, "conch", "conch", "the conch program the hooks run (default: conch, found on PATH)")
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

// hookSpec is one event conch hooks, with the matcher its group carries
// ("" for none).
type hookSpec struct{ event, matcher string }

// The events conch hooks. Tool events match every tool: each tool call
// is a step. Claude Code's "*" matches all in every version; Codex reads
// a missing matcher as all. SubagentStart is left out for Claude Code (a
// subagent's chat is made at its first tool call): older versions do not
// know it.
var (
	claudeHooks = []hookSpec{
		{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PreToolUse", "*"}, {"PostToolUse", "*"},
		{"PostToolUseFailure", "*"}, {"PermissionRequest", "*"},
		{"Notification", ""}, {"PreCompact", ""}, {"Stop", ""}, {"StopFailure", ""}, {"SubagentStop", ""}, {"SessionEnd", ""},
	}
	codexHooks = []hookSpec{
		{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PreToolUse", ""}, {"PostToolUse", ""},
		{"PermissionRequest", ""}, {"PreCompact", ""}, {"Stop", ""}, {"Interrupt", ""}, {"SessionEnd", ""},
	}
)

// handlerTimeout is the timeout, in seconds, conch's handler for an event
// carries: hookTimeout, but 3 s for Codex's SessionEnd and Interrupt,
// which Codex 0.169 clamps to 3 s, warning at every run.
func handlerTimeout(harness, event string) int {
	switch {
	case harness == state.HarnessCodex && (event == "SessionEnd" || event == "Interrupt"):
		return 3
	case harness == state.HarnessGemini:
		return hookTimeout * 1000 // Gemini CLI's are in milliseconds
	}
	return hookTimeout
}

// hookTimeout is the timeout, in seconds, conch's handlers carry: a hook
// that waits for a locked home gives up after a second, so this is only a
// backstop.
const hookTimeout = 10

// installed is what an install or a removal did, for --json.
type installed struct {
	File    string   `json:"file"`
	Changed bool     `json:"changed"`
	Backup  string   `json:"backup,omitempty"`
	Events  []string `json:"events"`
	Notes   []string `json:"notes,omitempty"`
}

func (a *app) newInstallClaude() *cobra.Command {
	var o installOptions
	cmd := &cobra.Command{
		Use:   "claude [--project | --user] [--remove]",
		Short: "Put conch's hooks in Claude Code's settings",
		Long: `Put conch's hooks in Claude Code's settings: ~/.claude/settings.json with
--user (the default), .claude/settings.json of the current folder with
--project. Every hook already there is kept; conch's own (a command
"conch hook claude") is added once, so running it again changes nothing.
The file as it was is kept beside it (settings.json.bak-TIME), and the new
one is written whole, never half. --remove takes out conch's hooks and
nothing else. Claude Code reads the hooks when a session starts.

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
	}
	o.flags(cmd, ".claude/settings.json")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := o.check(); err != nil {
			return err
		}
		path := filepath.Join(a.userHome(), ".claude", "settings.json")
		if o.project {
			path = filepath.Join(a.env.Cwd, ".claude", "settings.json")
		}
		res, err := a.installHookFile(path, state.HarnessClaude, claudeHooks, &o)
		if err != nil {
			return err
		}
		if root := repoRoot(a.env.Cwd); o.project && !o.remove && root != "" && root != a.env.Cwd {
			res.Notes = append(res.Notes, subfolderNote(a.env.Cwd, root)...)
		}
		return a.sayInstalled([]*installed{res}, &o, "Claude Code reads them when a session starts.")
	})
	return cmd
}

// sayInstalled prints what was done.
func (a *app) sayInstalled(done []*installed, o *installOptions, after string) error {
	var b strings.Builder
	changed := false
	for _, r := range done {
		switch {
		case !r.Changed && o.remove:
			fmt.Fprintf(&b, "%s: nothing of conch's to take out\n", r.File)
		case !r.Changed:
			fmt.Fprintf(&b, "%s: conch's hooks are there already\n", r.File)
		case o.remove:
			fmt.Fprintf(&b, "%s: conch's part taken out\n", r.File)
		default:
			fmt.Fprintf(&b, "%s: conch's part put in (%s)\n", r.File, strings.Join(r.Events, ", "))
		}
		if r.Backup != "" {
			fmt.Fprintf(&b, "  the file as it was: %s\n", r.Backup)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "  %s\n", n)
		}
		changed = changed || r.Changed
	}
	if changed && !o.remove {
		if _, err := exec.LookPath(o.conch); err != nil {
			fmt.Fprintf(&b, "note: %s is not on PATH here; the hooks run it by that name (--conch PATH names another)\n", o.conch)
		}
		b.WriteString(after + "\n")
	}
	if len(done) == 1 {
		return a.printer().Value(done[0], b.String())
	}
	return a.printer().Value(done, b.String())
}

// hookCommand is the command line of conch's handler for a harness. The
// program is shell-quoted unless every byte of it is one a shell takes
// literally (issue 12, rule 19): a --conch of "x;rm -rf ~" or "$(…)" or
// "PATH=…" runs that program by that name, nothing else.
func hookCommand(conch, harness string) string {
	return shellQuote(conch) + " hook " + harness
}

// shellQuote writes s as one POSIX shell word.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("_./+,:@%~-", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isConchHook says whether a handler's command is conch's for the
// harness: conch's own entries are known by their command, whatever path
// it names the program by.
func isConchHook(command, harness string) bool {
	f := shellWords(command)
	if len(f) != 3 || f[1] != "hook" || f[2] != harness {
		return false
	}
	base := filepath.Base(f[0])
	return base == "conch" || base == "conch.exe"
}

// shellWords splits a command line as a POSIX shell would split words
// (quotes and backslashes), enough to read back what hookCommand wrote.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	in, quote := false, rune(0)
	for i := 0; i < len(s); i++ {
		c := rune(s[i])
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				w.WriteRune(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s):
				i++
				w.WriteByte(s[i])
			default:
				w.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(c)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// installHookFile merges conch's hooks into (or takes them out of) a JSON
// hooks file: Claude Code's settings.json or Codex's hooks.json.
func (a *app) installHookFile(path, harness string, specs []hookSpec, o *installOptions) (*installed, error) {
	path = resolveLink(path)
	res := &installed{File: path, Events: []string{}}
	for _, s := range specs {
		res.Events = append(res.Events, s.event)
	}
	data, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	if !exists && o.remove {
		return res, nil
	}
	out, changed, err := mergeHooks(data, specs, hookCommand(o.conch, harness), harness, o.remove)
	if err != nil {
		return nil, fmt.Errorf("%s: %v; nothing changed", path, err)
	}
	if !changed {
		return res, nil
	}
	if exists {
		if res.Backup, err = a.backup(path, data); err != nil {
			return nil, err
		}
	}
	if err := writeWhole(path, out); err != nil {
		return nil, err
	}
	res.Changed = true
	return res, nil
}

// resolveLink follows a symbolic link to the file it names, so that a
// settings file kept elsewhere (a dotfiles repository) is changed there,
// not replaced by a file of its own.
func resolveLink(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// backup keeps a file as it was beside it, under a name of its own.
func (a *app) backup(path string, data []byte) (string, error) {
	now, err := a.clock()
	if err != nil {
		now = a.env.Now // a CONCH_NOW that is not a time names no backup
	}
	base := path + ".bak-" + now().UTC().Format("20060102T150405Z")
	name := base
	for i := 2; ; i++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			name = fmt.Sprintf("%s-%d", base, i)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("cannot keep %s as it was: %v; nothing changed", path, err)
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", fmt.Errorf("cannot keep %s as it was: %v; nothing changed", path, err)
		}
		return name, nil
	}
}

// writeWhole replaces a file whole (a temporary file renamed over it),
// keeping its permissions; a new one is made 0600 (settings files can
// hold keys).
func writeWhole(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if err := renameio.WriteFile(path, data, 0o600, renameio.WithExistingPermissions()); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}

// mergeHooks puts conch's handlers into a hooks file's JSON, or takes
// them out, keeping everything else as it was: key order, and the very
// bytes of every value conch did not touch. It says whether anything
// changed.
func mergeHooks(data []byte, specs []hookSpec, command, harness string, remove bool) ([]byte, bool, error) {
	root, err := parseObject(data)
	if err != nil {
		return nil, false, err
	}
	hooks := &object{}
	if raw, ok := root.raw("hooks"); ok {
		if hooks, err = parseObject(raw); err != nil {
			return nil, false, fmt.Errorf("its \"hooks\" is not an object")
		}
	}
	changed := false
	for _, s := range specs {
		var groups []json.RawMessage
		if raw, ok := hooks.raw(s.event); ok {
			if json.Unmarshal(raw, &groups) != nil {
				return nil, false, fmt.Errorf("its hooks.%s is not a list", s.event)
			}
		}
		list, ch, err := mergeGroups(groups, s, command, harness, remove)
		if err != nil {
			return nil, false, fmt.Errorf("hooks.%s: %v", s.event, err)
		}
		if !ch {
			continue
		}
		changed = true
		if len(list) == 0 {
			hooks.del(s.event)
		} else {
			hooks.set(s.event, list)
		}
	}
	if !changed {
		return data, false, nil
	}
	if len(hooks.keys) == 0 {
		root.del("hooks")
	} else {
		root.set("hooks", hooks)
	}
	var out bytes.Buffer
	if err := pretty(&out, root, 0); err != nil {
		return nil, false, err
	}
	out.WriteByte('\n')
	if !json.Valid(out.Bytes()) {
		return nil, false, errors.New("the merged file would not be JSON")
	}
	return out.Bytes(), true, nil
}

// mergeGroups does it for one event's list of matcher groups. The groups
// it leaves alone come back as they were (json.RawMessage); the ones it
// changed or made, as fresh JSON.
func mergeGroups(groups []json.RawMessage, s hookSpec, command, harness string, remove bool) ([]any, bool, error) {
	changed, found := false, false
	var out []any
	for _, g := range groups {
		group, err := parseObject(g)
		if err != nil {
			out = append(out, g) // not a group conch knows: not its to judge
			continue
		}
		var handlers []json.RawMessage
		if raw, ok := group.raw("hooks"); ok && json.Unmarshal(raw, &handlers) != nil {
			out = append(out, g)
			continue
		}
		var keep []any
		touched := false
		for _, hr := range handlers {
			h, err := parseObject(hr)
			var cmd string
			if err == nil {
				if raw, ok := h.raw("command"); ok {
					_ = json.Unmarshal(raw, &cmd)
				}
			}
			if err != nil || !isConchHook(cmd, harness) {
				keep = append(keep, hr)
				continue
			}
			switch {
			case remove:
				touched = true
			case found:
				touched = true // a second of conch's: one is enough
			default:
				found = true
				want := json.RawMessage(fmt.Sprint(handlerTimeout(harness, s.event)))
				timeout, _ := h.raw("timeout")
				if cmd != command || !bytes.Equal(bytes.TrimSpace(timeout), want) {
					c, _ := json.Marshal(command)
					h.set("command", json.RawMessage(c))
					h.set("timeout", want)
					keep = append(keep, h)
					touched = true
				} else {
					keep = append(keep, hr)
				}
			}
		}
		if !touched {
			out = append(out, g)
			continue
		}
		changed = true
		if len(keep) == 0 {
			continue // the group held only conch's handler: it goes with it
		}
		group.set("hooks", keep)
		out = append(out, group)
	}
	if !remove && !found {
		// Built in the order the harnesses' own documents write it.
		handler, group := &object{}, &object{}
		handler.set("type", json.RawMessage(`"command"`))
		c, _ := json.Marshal(command)
		handler.set("command", json.RawMessage(c))
		handler.set("timeout", json.RawMessage(fmt.Sprint(handlerTimeout(harness, s.event))))
		if s.matcher != "" {
			m, _ := json.Marshal(s.matcher)
			group.set("matcher", json.RawMessage(m))
		}
		group.set("hooks", []any{handler})
		out = append(out, group)
		changed = true
	}
	return out, changed, nil
}

// object is a JSON object that keeps its keys in order. A value is the
// bytes it was read as (json.RawMessage), a changed *object, or a changed
// list ([]any of either), so a person's file comes back as they wrote it
// but for what conch changed.
type object struct {
	keys []string
	vals map[string]any
}

// parseObject reads a JSON object; an empty file is an empty object.
func parseObject(data []byte) (*object, error) {
	o := &object{vals: map[string]any{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		o.set(key, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("not JSON: more after the object")
	}
	return o, nil
}

// raw is a value as it was read.
func (o *object) raw(k string) (json.RawMessage, bool) {
	v, ok := o.vals[k].(json.RawMessage)
	return v, ok
}

func (o *object) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, x := range o.keys {
		if x == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// pretty writes v indented two spaces a level, at depth; a value read
// from the file is written as it was read.
func pretty(b *bytes.Buffer, v any, depth int) error {
	pad := func(d int) string { return strings.Repeat("  ", d) }
	switch v := v.(type) {
	case json.RawMessage:
		b.Write(bytes.TrimSpace(v))
	case *object:
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteString("{\n")
		for i, k := range v.keys {
			kb, err := json.Marshal(k)
			if err != nil {
				return err
			}
			b.WriteString(pad(depth + 1))
			b.Write(kb)
			b.WriteString(": ")
			if err := pretty(b, v.vals[k], depth+1); err != nil {
				return err
			}
			if i < len(v.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(pad(depth) + "}")
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteString("[\n")
		for i, x := range v {
			b.WriteString(pad(depth + 1))
			if err := pretty(b, x, depth+1); err != nil {
				return err
			}
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(pad(depth) + "]")
	default:
		return fmt.Errorf("cannot write %T", v)
	}
	return nil
}

// repoRoot is the top folder of the git repository dir is in ("" for
// none): the folder that has .git, a folder or (in a worktree) a file.
func repoRoot(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// subfolderNote is what install claude --project says in a folder inside
// a repository: Claude Code reads a project's .claude/settings.json only
// in the folder a session starts in, so these hooks cover this folder, not
// the repository.
func subfolderNote(cwd, root string) []string {
	return []string{
		"Claude Code reads .claude/settings.json only in the folder a session starts in: these hooks serve sessions started in " + cwd + ", not in " + root + " or its other folders.",
		"To cover the repository: cd " + shellQuote(root) + " && conch install claude --project (sessions started there), or conch install claude --user (every session).",
	}
}

// claudeWarning is what conch doctor says when Claude Code sessions
// started in the current folder would run none of conch's hooks, where
// Claude Code is in use (~/.claude is there) or a folder above has them;
// "" when they would, or Claude Code is not in use.
func (a *app) claudeWarning() string {
	covered, above := a.claudeCoverage(a.env.Cwd)
	if covered {
		return ""
	}
	if above != "" {
		return "Claude Code sessions started in " + a.env.Cwd + " run no conch hooks: " + filepath.Join(above, ".claude", "settings.json") + " has them, but Claude Code reads only the folder a session starts in (conch install claude --user covers every folder)"
	}
	if _, err := os.Stat(filepath.Join(a.userHome(), ".claude")); err != nil {
		return ""
	}
	return "Claude Code sessions started in " + a.env.Cwd + " run no conch hooks (conch install claude --user covers every folder, --project this one)"
}

// claudeCoverage says whether Claude Code sessions started in dir run
// conch's hooks (the user settings, or dir's own project or local
// settings have them), and, when they do not, the nearest folder above
// dir whose project settings have them ("" for none).
func (a *app) claudeCoverage(dir string) (covered bool, above string) {
	has := func(path string) bool {
		data, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		_, changed, err := mergeHooks(data, claudeHooks, "conch hook claude", state.HarnessClaude, true)
		return err == nil && changed
	}
	if has(filepath.Join(a.userHome(), ".claude", "settings.json")) {
		return true, ""
	}
	dir = filepath.Clean(dir)
	if has(filepath.Join(dir, ".claude", "settings.json")) || has(filepath.Join(dir, ".claude", "settings.local.json")) {
		return true, ""
	}
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if has(filepath.Join(d, ".claude", "settings.json")) || has(filepath.Join(d, ".claude", "settings.local.json")) {
			return false, d
		}
		if filepath.Dir(d) == d {
			return false, ""
		}
	}
}
