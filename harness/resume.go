package harness

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

// Resumer is how a harness resumes one of its sessions headless, with a
// prompt (issue 23), read from its own shipped help (the pinned versions
// of testdata/e2e/harnesses.txt; each adapter's file has its own): the program's name,
// the words that resume the session (its id given), the flags of each of
// conch's modes, and the words before the prompt.
type Resumer struct {
	Program string
	Argv    func(session string) []string
	// Modes are the flags of each of conch's modes (a list, not a map:
	// a map would be built at every process's start).
	Modes  []ModeFlags
	Before func(session string) []string
	// Env are the harness's own variables a resumed session needs to
	// reach its model: names, a prefix ("ANTHROPIC_*") or a suffix
	// ("*_API_KEY").
	Env []string
	// ConfigEnv, when set, gives more names the harness's own config
	// names for its keys (Codex's model_providers.*.env_key).
	ConfigEnv func(getenv func(string) string, userHome string) []string
	// Carry are flags of the first run's command line that its resume
	// takes again when that run had them (Codex's hook trust: without it
	// codex exec runs no untrusted hook, and the woken turn would hear
	// nothing of conch).
	Carry []string
	// CarryValues are flags whose value the first run gave (its model, its
	// provider) that the resume gives again.
	CarryValues []string
	// Own reads the first run's command line for the flags that set its
	// permission mode, and the conch mode they mean: a resume runs as the
	// first run did, unless the wake must run lower (Modes then).
	Own func(args []string) (flags []string, mode string)
	// ProcEnv: the harness gives its hooks a filtered environment (Copilot
	// CLI 1.0.102 keeps its COPILOT_PROVIDER_* keys from them, and from
	// its runtime's own): its variables are read from its process's and
	// its launcher's environment as well.
	ProcEnv bool
	// Says is how conch help integrations and the sender say it.
	Says string
}

// ModeFlags are the flags that run a resumed session in conch's mode Mode.
type ModeFlags struct {
	Mode  string
	Flags []string
}

// modesOf are a resume's modes as the resume record keeps them (nil for
// none).
func modesOf(rs *Resumer) map[string][]string {
	if len(rs.Modes) == 0 {
		return nil
	}
	m := make(map[string][]string, len(rs.Modes))
	for _, f := range rs.Modes {
		m[f.Mode] = f.Flags
	}
	return m
}

// sharedEnv are the variables every harness needs to reach past the
// machine as its first run did: proxies, certificates, config folders.
var sharedEnv = []string{
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
	"NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
	"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME",
}

// keepResume keeps how to wake chat c by resuming this session, at its
// start: the harness's program, its resume, its own variables, and the
// process that runs it now (while it lives, the session is open).
func keepResume(r *run, ev *Event, tx *state.Tx, c *state.Chat) error {
	rs := r.caps.Resume
	if rs == nil || ev.Agent != "" || ev.Session == "" || strings.HasPrefix(ev.Session, "-") {
		return nil
	}
	pid := r.env.PID()
	first := ev.Argv
	if len(first) == 0 || len(first) > 64 {
		first = proc.Args(pid)
	}
	prog := programOf(rs.Program, r.env.Getenv("PATH"), first)
	if prog == nil {
		return nil // nothing says what to run: the chat cannot be woken so
	}
	how := state.ResumeHow{Argv: slices.Concat(prog, rs.Argv(ev.Session)), Modes: modesOf(rs)}
	if len(rs.Carry) > 0 || len(rs.CarryValues) > 0 || rs.Own != nil {
		for _, f := range rs.Carry {
			if slices.Contains(first, f) {
				how.Argv = append(how.Argv, f)
			}
		}
		for _, f := range rs.CarryValues {
			if v, ok := flagValue(first, f); ok && v != "" && !strings.HasPrefix(v, "-") && len(v) <= 256 {
				how.Argv = append(how.Argv, f, v)
			}
		}
		if rs.Own != nil && len(first) > 1 {
			how.Own, how.OwnMode = rs.Own(first[1:])
		}
	}
	if rs.Before != nil {
		how.Prompt = rs.Before(ev.Session)
	}
	start, _ := proc.Start(pid)
	res := state.Resume{
		Harness: ev.Harness, Session: ev.Session, How: how, Channel: state.LocalURL(ev.Channel),
		Env: harnessEnv(r, rs, pid), Proc: state.Proc{PID: pid, Start: start},
	}
	return tx.Sessions().KeepResume(c.ID, res, state.CmdEnvOf(r.env.Getenv))
}

// harnessEnv are the harness's own variables, as this event's process
// has them (the harness's environment, never another chat's): the ones
// rs names, and those every harness shares; never those that name this
// session's shell or files (a resumed run has its own), nor conch's.
func harnessEnv(r *run, rs *Resumer, pid int) []string {
	names := slices.Concat(sharedEnv, rs.Env)
	if rs.ConfigEnv != nil {
		names = append(names, rs.ConfigEnv(r.env.Getenv, r.env.UserHome)...)
	}
	skip := slices.Concat(r.caps.EnvFiles, []string{r.caps.SessionEnv, r.caps.AgentEnv, "CLAUDE_PROJECT_DIR", "CLAUDECODE"})
	var env []string
	all := r.env.environ()
	if rs.ProcEnv {
		// The hook's own come first, then the harness's process's and its
		// launcher's (Copilot's npm wrapper starts its runtime with a
		// filtered environment).
		for p, i := pid, 0; p > 1 && i < 2; p, i = proc.Parent(p), i+1 {
			all = append(all, proc.Environ(p)...)
		}
	}
	seen := map[string]bool{}
	for _, kv := range all {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" || len(kv) > state.MaxCommand || slices.Contains(skip, k) || strings.HasPrefix(k, "CONCH_") {
			continue
		}
		if envNamed(names, k) && !seen[k] {
			seen[k] = true
			env = append(env, kv)
		}
	}
	slices.Sort(env)
	return env
}

// environ is the adapter's whole environment, else the named variables
// Getenv gives (a test's Env names no Environ).
func (e Env) environ() []string {
	if e.Environ != nil {
		return e.Environ()
	}
	return nil
}

// envNamed says whether variable k is one of names: a name, a prefix
// ("X_*") or a suffix ("*_Y").
func envNamed(names []string, k string) bool {
	for _, n := range names {
		switch {
		case strings.HasSuffix(n, "*"):
			if strings.HasPrefix(k, strings.TrimSuffix(n, "*")) {
				return true
			}
		case strings.HasPrefix(n, "*"):
			if strings.HasSuffix(k, strings.TrimPrefix(n, "*")) {
				return true
			}
		case n == k:
			return true
		}
	}
	return false
}

// codexKeyVars are the variables Codex's config names for its providers'
// keys (model_providers.NAME.env_key), read from $CODEX_HOME/config.toml
// at a session's start: a provider of the person's own takes its key from
// a variable of any name.
func codexKeyVars(getenv func(string) string, userHome string) []string {
	dir := getenv("CODEX_HOME")
	if dir == "" {
		if userHome == "" {
			return nil
		}
		dir = filepath.Join(userHome, ".codex")
	}
	data, err := os.ReadFile(filepath.Join(dir, "config.toml"))
	if err != nil || len(data) > 1<<20 {
		return nil
	}
	return envKeys(string(data))
}

// envKeys are the values of the env_key lines of a Codex config: plain
// variable names only.
func envKeys(config string) []string {
	var out []string
	for _, line := range strings.Split(config, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok || strings.TrimSpace(k) != "env_key" {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		if plainVar(v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// plainVar says whether s is a variable's name: letters, digits and _,
// not starting with a digit, at most 128.
func plainVar(s string) bool {
	if s == "" || len(s) > 128 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// programOf is the harness's program as a resume runs it: name on the
// harness's PATH, else what its process was started as, args (a script's
// interpreter with the script, for a harness run by node or bun). nil
// when neither says.
func programOf(name, path string, args []string) []string {
	if p, ok := proc.LookPath(name, path); ok {
		return []string{p}
	}
	if len(args) == 0 || args[0] == "" {
		return nil
	}
	a0 := args[0]
	if !filepath.IsAbs(a0) {
		p, ok := proc.LookPath(a0, path)
		if !ok {
			return nil
		}
		a0 = p
	}
	switch strings.TrimSuffix(filepath.Base(a0), ".exe") {
	case "node", "bun", "deno":
		// The interpreter, its own flags (a harness that relaunches
		// itself with more memory), then the script.
		for i := 1; i < len(args) && i < 8; i++ {
			if !strings.HasPrefix(args[i], "-") {
				if !filepath.IsAbs(args[i]) {
					return nil
				}
				return append([]string{a0}, args[1:i+1]...)
			}
		}
		return nil
	}
	return []string{a0}
}

// flagValue is the value of flag in args (--flag V or --flag=V), the last
// one given.
func flagValue(args []string, flags ...string) (string, bool) {
	v, found := "", false
	for i, a := range args {
		for _, f := range flags {
			switch {
			case a == f && i+1 < len(args):
				v, found = args[i+1], true
			case strings.HasPrefix(a, f+"="):
				v, found = strings.TrimPrefix(a, f+"="), true
			}
		}
	}
	return v, found
}

// claudeOwn: --permission-mode M (claude --help's choices), or
// --dangerously-skip-permissions.
func claudeOwn(args []string) ([]string, string) {
	if m, ok := flagValue(args, "--permission-mode"); ok {
		switch m {
		case "plan":
			return []string{"--permission-mode", m}, state.ModePlan
		case "bypassPermissions", "auto":
			return []string{"--permission-mode", m}, state.ModeAuto
		case "default", "manual", "acceptEdits", "dontAsk":
			return []string{"--permission-mode", m}, state.ModeAsk
		}
		return nil, ""
	}
	if slices.Contains(args, "--dangerously-skip-permissions") {
		return []string{"--dangerously-skip-permissions"}, state.ModeAuto
	}
	return nil, ""
}

// codexOwn: --dangerously-bypass-approvals-and-sandbox, --full-auto, or
// -s/--sandbox (codex exec --help).
func codexOwn(args []string) ([]string, string) {
	switch {
	case slices.Contains(args, "--dangerously-bypass-approvals-and-sandbox") || slices.Contains(args, "--yolo"):
		return []string{"--dangerously-bypass-approvals-and-sandbox"}, state.ModeAuto
	case slices.Contains(args, "--full-auto"):
		return []string{"--full-auto"}, state.ModeAuto
	}
	if s, ok := flagValue(args, "-s", "--sandbox"); ok {
		switch s {
		case "read-only":
			return []string{"-c", `sandbox_mode="read-only"`}, state.ModeAsk
		case "workspace-write", "danger-full-access":
			return []string{"-c", `sandbox_mode="` + s + `"`}, state.ModeAuto
		}
	}
	return nil, ""
}

// approvalOwn: --approval-mode M, or -y/--yolo (Gemini CLI's and Qwen
// Code's --help).
func approvalOwn(args []string) ([]string, string) {
	if m, ok := flagValue(args, "--approval-mode"); ok {
		switch m {
		case "plan":
			return []string{"--approval-mode", m}, state.ModePlan
		case "yolo", "auto":
			return []string{"--approval-mode", m}, state.ModeAuto
		case "default", "auto_edit", "auto-edit":
			return []string{"--approval-mode", m}, state.ModeAsk
		}
		return nil, ""
	}
	if slices.Contains(args, "-y") || slices.Contains(args, "--yolo") {
		return []string{"--approval-mode", "yolo"}, state.ModeAuto
	}
	return nil, ""
}
