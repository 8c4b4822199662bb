package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

const codexName = "codex"

// codex is Codex's adapter: its hooks speak Claude Code's protocol, and
// its notify program reports each turn's end.
var codex = Adapter{
	Name:    codexName,
	Title:   "Codex",
	Install: &codexInstall,
	Use:     "codex [JSON]",
	Short:   "Codex's hook (an event on standard input) and its notify program (one JSON argument)",
	Long: `Codex's hook and notify program (conch install codex sets both up).

With no argument it is a Codex hook: it reads one hook event, JSON on
standard input, and answers in Codex's JSON, as conch hook claude does for
Claude Code (Codex's hooks speak the same protocol; Codex refuses
continue:false before a tool, so a stopped reply's tool is denied instead).
Interrupt ends the reply as stopped, SessionEnd stops the chat; the events
and what Codex 0.169 allows are in conch help integrations. On Windows
the TUI's app-server daemon is not told apart (conch reads no process's
command line there): its hooks act as the daemon's CONCH_CHAT.

With one argument it is Codex's notify program: Codex appends one JSON
object to the command, {"type": "agent-turn-complete", "thread-id", "turn-id",
"cwd", "input-messages", "last-assistant-message"}, when a turn ends. The
chat's reply ends with the last assistant message (once per turn, however
many of the hook and the notify program report it). Codex reads nothing
back from notify.

It never breaks the session it serves: any failure prints one warning line
on standard error and answers nothing.

Exit codes: 0, always.`,
	// Codex 0.169 refuses continue:false before a tool, and has no
	// permission prompt in PreToolUse. It exports no env file for
	// CONCH_CHAT, but its shell has CODEX_THREAD_ID.
	Caps: Capabilities{
		Resume:  codexResume,
		Context: hookContext, Deny: true, KeepGoing: true,
		ContextCap: 10000, SystemMessage: true, HostedSearch: true, HiddenThreads: true,
		EnvFiles: []string{"CODEX_ENV_FILE", "CLAUDE_ENV_FILE"}, SessionEnv: "CODEX_THREAD_ID",
	},
	// Codex's hooks name its shell Bash; older versions, and its
	// rollouts, name it so (codex's own binary, 0.171).
	Tools: []ToolWord{
		{"shell", "Bash"}, {"exec_command", "Bash"}, {"local_shell", "Bash"}, {"web_search", "WebSearch"},
	},
	Decode:      decodeCodex,
	Encode:      encodeHook,
	ArgEvent:    true,
	TrustsHooks: true,
	LastWords:   codexLastWords,
	Typed:       codexTyped,
}

// codex exec resume --help: "codex exec resume [OPTIONS] [SESSION_ID]
// [PROMPT]", "-c, --config <key=value>"; exec's sandbox is read-only
// unless the config says otherwise.
var codexResume = &Resumer{
	Program: "codex",
	Argv:    func(string) []string { return []string{"exec", "resume", "--skip-git-repo-check"} },
	Modes: []ModeFlags{
		{state.ModeAsk, []string{"-c", `sandbox_mode="read-only"`, "-c", `approval_policy="never"`}},
		{state.ModePlan, []string{"-c", `sandbox_mode="read-only"`, "-c", `approval_policy="never"`}},
	},
	Before:      func(s string) []string { return []string{s} },
	Env:         []string{"OPENAI_*", "CODEX_*", "AZURE_OPENAI_*"},
	Carry:       []string{"--dangerously-bypass-hook-trust"},
	Own:         codexOwn,
	CarryValues: []string{"-m", "--model"},
	ConfigEnv:   codexKeyVars,
	Says:        "codex exec resume SESSION",
}

// codexKind is what each of Codex's hook events means: Claude Code's
// names (codex speaks its protocol), and Interrupt.
func codexKind(event string) Kind {
	if event == "Interrupt" {
		// Esc in the TUI, a steer that interrupts, codex agents' x.
		return TurnInterrupted
	}
	return claudeKind(event)
}

// decodeCodex reads one of Codex's hook events, or, as the hook's
// argument, what it hands its notify program.
func decodeCodex(h *Hook) (Event, error) {
	if h.Arg {
		return decodeNotify(h)
	}
	ev, err := decodeHook(h, codexName, codexKind)
	if err != nil {
		return ev, err
	}
	if daemon := codexDaemon(h); daemon != 0 && (h.Kind == PromptSubmit || h.Kind == SessionStart) {
		// The session's chat is made at these two. The TUI the person is
		// in, where conch can tell which it is, says the chat it was
		// started for (CONCH_CHAT in its own environment: a wake's, or a
		// person's); the daemon's is another terminal's.
		tui := proc.CodexClient(daemon, ev.WorkFolder(h.Cwd), h.Getenv("CODEX_HOME"))
		if id := proc.Env(tui, "CONCH_CHAT"); state.ValidID(id) {
			h.Chat = id
		}
		if h.Kind == PromptSubmit {
			// The daemon outlives /quit, a turn still running going on in
			// it unseen: the reply's process is the TUI.
			h.HarnessPID = tui
		}
	}
	return ev, nil
}

// codexDaemon is the pid of Codex's app-server daemon when it runs this
// hook, else 0. The TUI's daemon runs every session of every terminal
// after the first, with the first one's environment: its CONCH_CHAT names
// no chat of this session's, so it is not read (the TUI's own is, by
// decodeCodex).
func codexDaemon(h *Hook) int {
	pid := proc.HarnessPID(h.PPID)
	if !proc.IsCodexDaemon(pid) {
		return 0
	}
	h.Chat = ""
	return pid
}

// decodeNotify reads what Codex hands its notify program: a turn ended.
func decodeNotify(h *Hook) (Event, error) {
	p := h.P
	h.Event = p.Str("type")
	if h.Event != "agent-turn-complete" {
		return Event{}, fmt.Errorf("notification type %q: only agent-turn-complete is known", h.Event)
	}
	h.Kind = TurnComplete
	var inputs []string
	_ = json.Unmarshal(p["input-messages"], &inputs)
	codexDaemon(h)
	return Event{
		Kind: h.Kind, Name: h.Event, Harness: codexName,
		Session: p.Str("thread-id"), Turn: p.Str("turn-id"), Folder: p.Str("cwd"),
		Inputs: inputs, LastWords: p.Str("last-assistant-message"),
	}, nil
}

// codexInstall is conch install codex: conch's hooks in Codex's
// hooks.json, conch as its notify program in config.toml, and, with
// --remove, the trust Codex recorded for conch's hooks taken out with
// them.
var codexInstall = install.Recipe{
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
	Dir: func(e install.Env, project bool) string {
		if project {
			return filepath.Join(e.Cwd, ".codex")
		}
		return codexHome(e)
	},
	Do: codexDo,
	After: `Codex runs new hooks only once you trust them; codex exec skips untrusted
hooks without a word (conch then hears only each turn's end, from notify).
Trust conch's once in the TUI (codex, then /hooks and t to trust all), or
run codex exec --dangerously-bypass-hook-trust.`,
}

// codexHome is the person's Codex folder: $CODEX_HOME, else ~/.codex.
func codexHome(e install.Env) string {
	if d := e.Getenv("CODEX_HOME"); d != "" {
		return d
	}
	return filepath.Join(e.Home, ".codex")
}

// codexHooks are conch's hooks in Codex's hooks.json. A missing matcher
// matches every tool. SessionEnd and Interrupt carry 3 s, which Codex
// 0.169 clamps them to, warning at every run.
func codexHooks(conch string) install.Hooks {
	h := install.Hooks{Harness: codexName, Command: install.Command(conch, codexName)}
	for _, name := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
		"PermissionRequest", "PreCompact", "Stop", "Interrupt", "SessionEnd"} {
		e := install.Event{Name: name, Timeout: install.HookTimeout}
		if name == "SessionEnd" || name == "Interrupt" {
			e.Timeout = 3
		}
		h.Events = append(h.Events, e)
	}
	return h
}

func codexDo(r *install.Run) ([]*install.Result, error) {
	user := codexHome(r.Env)
	config, hooksFile := filepath.Join(r.Dir, "config.toml"), install.Link(filepath.Join(r.Dir, "hooks.json"))
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
	notify, err := codexNotify(&no, config)
	if err != nil {
		return nil, err
	}
	hooks, err := r.HookFile(hooksFile, codexHooks(r.Conch))
	if err != nil {
		return nil, err
	}
	hooks.Notes = append(hooks.Notes, notify.Notes...)
	notify.Notes = nil
	done := []*install.Result{hooks, notify}
	if r.Project && !r.Remove {
		// The project's config is not conch's to fill: it is said only
		// when an older conch's notify line had to go.
		done = done[:1]
		if notify.Changed {
			hooks.Notes = append(hooks.Notes, CodexNotifyOut{Path: notify.File, Backup: notify.Backup})
		}
	}
	if !r.NoMCP {
		mcp, err := r.TOMLMCPFile(config, codexMCPTable)
		if err != nil {
			return nil, err
		}
		done = append(done, mcp)
	}
	if len(trusted) > 0 {
		trust, err := codexRemoveTrust(r, filepath.Join(user, "config.toml"), trusted)
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
				if install.IsConchCommand(h.Command, codexName) {
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

// codexRemoveTrust takes the trust entries with those keys out of Codex's
// config.toml: each [hooks.state."KEY"] table, header and lines, as Codex
// writes them; the rest of the file stays as it is.
func codexRemoveTrust(r *install.Run, path string, keys []string) (*install.Result, error) {
	res := &install.Result{File: path, Events: []string{"hooks.state"}}
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
		out, n = install.DropTables(string(data), headers)
		if n == 0 {
			return nil, false, nil
		}
		if err := install.CheckTOML(out); err != nil {
			return nil, false, fmt.Errorf("without conch's trust entries it would not be TOML (%v)", err)
		}
		return []byte(out), true, nil
	})
	if err != nil {
		return nil, err
	}
	if res.Changed {
		res.Notes = append(res.Notes, CodexTrustOut{N: n})
	}
	return res, nil
}

// codexNotify makes conch Codex's notify program in config.toml (or
// takes it out), by editing the one line, so the rest of a person's file
// (comments, order, spacing) stays as it is.
func codexNotify(r *install.Run, path string) (*install.Result, error) {
	res := &install.Result{File: path, Events: []string{"notify"}}
	err := r.Edit(res, func(data []byte, exists bool) ([]byte, bool, error) {
		conf, err := install.DecodeTOML(string(data))
		if err != nil {
			return nil, false, install.Predicate{Err: fmt.Errorf("is not TOML: %v", err)}
		}
		if features, ok := conf["features"].(map[string]any); ok && !r.Remove {
			for _, k := range []string{"hooks", "codex_hooks"} {
				if on, ok := features[k].(bool); ok && !on {
					res.Notes = append(res.Notes, CodexHooksOff{Path: res.File, Key: k})
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
			if out, ok = install.DropTopKey(string(data), "notify"); !ok {
				return nil, false, fmt.Errorf("no notify line found")
			}
		case has:
			res.Notes = append(res.Notes, CodexOwnNotify{Path: res.File})
			return nil, false, nil
		default:
			prog, _ := json.Marshal(r.Conch)
			out = fmt.Sprintf("notify = [%s, \"hook\", \"codex\"]  # conch: each turn's end\n", prog) + string(data)
		}
		check, err := install.DecodeTOML(out)
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
	return install.IsConchWords(words, codexName)
}

// codexMCPTable is conch's server as Codex reads it, in config.toml:
// Codex passes a server only a few variables of its own, so conch's are
// named.
func codexMCPTable(conch string) string {
	prog, _ := json.Marshal(conch)
	return install.MCPTableHeader + "\ncommand = " + string(prog) + "\nargs = [\"mcp\"]\nenv_vars = [\"CONCH_HOME\", \"CONCH_CHAT\"]\n"
}

// CodexHooksOff notes a config.toml (Path) whose [features] Key turns
// hooks off.
type CodexHooksOff struct{ Path, Key string }

// CodexOwnNotify notes a config.toml (Path) whose notify program is not
// conch's.
type CodexOwnNotify struct{ Path string }

// CodexNotifyOut notes the notify line an older conch put in a project's
// config.toml (Path), taken out, the file as it was kept at Backup.
type CodexNotifyOut struct{ Path, Backup string }

// CodexTrustOut notes Codex's trust entries for conch's hooks (N of
// them), taken out.
type CodexTrustOut struct{ N int }

func (CodexHooksOff) InstallNote()  {}
func (CodexOwnNotify) InstallNote() {}
func (CodexNotifyOut) InstallNote() {}
func (CodexTrustOut) InstallNote()  {}
