package harness

import (
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/state"
)

const (
	opencodeName  = "opencode"
	opencodeTitle = "OpenCode"
)

// opencode is OpenCode's adapter: conch's own plugin reports its events.
var opencode = Adapter{
	Name:    opencodeName,
	Title:   opencodeTitle,
	Install: &opencodeInstall,
	Use:     opencodeName,
	Short:   opencodeTitle + pluginShort + opencodeName + pluginShortEnd,
	Long:    opencodeTitle + pluginLong1 + opencodeName + pluginLong2 + opencodeTitle + pluginLong3 + opencodeTitle + pluginLong4,
	// OpenCode 1.18.33 and Pi 0.73.1 run conch's own plugin (extension):
	// it adds a SessionStart's context to the first prompt and a PreTool's
	// to the tool's output, refuses a tool by throwing (OpenCode) or
	// {block} (Pi), ends a turn by aborting it, sends a prompt that keeps
	// a turn going (and says Continued where the harness would leave
	// without answering it: opencode run, pi -p), and sets CONCH_CHAT in
	// the session's shell. Neither can ask the person before a tool.
	Caps: Capabilities{
		Resume:  opencodeResume,
		Context: hookContext, Deny: true, KeepGoing: true,
		ContextCap: 10000, StopBeforeTool: true, StopHeard: true, ShellChat: true,
	},
	PromptInto: opencodePrompt,
	Decode:     decodeOpenCode,
	Encode:     encodePlugin,
	Plugin:     true,
}

// opencode run --help: "-s, --session session id to continue", "--agent
// agent to use" (plan is its read-only agent).
var opencodeResume = &Resumer{
	Program:     "opencode",
	Argv:        func(s string) []string { return []string{"run", "--session", s} },
	Modes:       []ModeFlags{{state.ModePlan, []string{"--agent", "plan"}}},
	CarryValues: []string{"-m", "--model"},
	Env:         []string{"OPENCODE_*", "ANTHROPIC_*", "OPENAI_*", "*_API_KEY"},
	Says:        "opencode run --session SESSION",
}

// openCodeKind is what each of the OpenCode plugin's events means; a
// subagent's (agent_id: its own session) are its child chat's.
func openCodeKind(name string, agent bool, p Fields) Kind {
	switch name {
	case "session.created":
		if agent {
			return SubagentStart
		}
		return SessionStart
	case "chat.message":
		if agent {
			return 0 // a subagent's prompt is its parent's tool call: its chat only
		}
		return PromptSubmit
	case "tool.execute.before":
		return PreTool
	case "tool.execute.after":
		return PostTool
	case "session.idle":
		if agent {
			return SubagentEnd
		}
		return TurnEnd
	case "session.error":
		if agent {
			return 0 // its parent's task tool fails with it
		}
		if p.Obj("error").Str("name") == "MessageAbortedError" {
			// Esc, or conch's own abort: the reply ends as stopped; the
			// session.idle that follows finds the turn ended.
			return TurnInterrupted
		}
		return TurnFailed
	case "permission.asked":
		return NeedsYou
	case "session.compacted":
		return Compacted
	case "session.deleted", "dispose":
		return SessionEnd
	}
	return -1
}

// decodeOpenCode reads one of the OpenCode plugin's events.
func decodeOpenCode(h *Hook) (Event, error) {
	h.Event = h.P.Str("hook_event_name")
	agent := h.P.Str("agent_id") != ""
	ev, err := decodePlugin(h, opencodeName, openCodeKind(h.Event, agent, h.P), openCodeTool)
	if err != nil {
		return ev, err
	}
	switch ev.Kind {
	case SessionStart:
		ev.Mode = openCodeMode("", h.P["permission"])
	case PromptSubmit:
		ev.Mode = openCodeMode(h.P.Str("agent"), h.P["permission"])
	case SubagentStart:
		// The task's session is titled "DESCRIPTION (@AGENT subagent)":
		// its description names the child.
		if i := strings.LastIndex(ev.AgentType, " (@"); i > 0 && strings.HasSuffix(ev.AgentType, " subagent)") {
			ev.AgentType = ev.AgentType[:i]
		}
	}
	return ev, nil
}

// openCodeMode is conch's mode for an OpenCode session: its plan agent is
// plan; otherwise ask when the config's permission rules ask the person
// before some tool runs ("ask" anywhere in them), else auto: OpenCode
// runs every tool unasked by default.
func openCodeMode(agent string, permission json.RawMessage) string {
	if agent == "plan" {
		return state.ModePlan
	}
	var rules any
	if json.Unmarshal(permission, &rules) != nil {
		return ""
	}
	if asks(rules) {
		return state.ModeAsk
	}
	return state.ModeAuto
}

func asks(v any) bool {
	switch v := v.(type) {
	case string:
		return v == "ask"
	case map[string]any:
		for _, x := range v {
			if asks(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if asks(x) {
				return true
			}
		}
	}
	return false
}

// openCodeTool is one of OpenCode 1.18's tools in Claude Code's words
// (the argument names read from the payloads its plugin sends). A tool
// not named here is "other".
func openCodeTool(name string) (toolSpec, bool) {
	switch name {
	case "bash":
		return toolSpec{"Bash", map[string]string{"command": "command"}}, true
	case "read":
		return toolSpec{"Read", map[string]string{"filePath": "file_path"}}, true
	case "write":
		return toolSpec{"Write", map[string]string{"filePath": "file_path"}}, true
	case "edit", "multiedit":
		return toolSpec{"Edit", map[string]string{"filePath": "file_path"}}, true
	case "apply_patch", "patch":
		return toolSpec{"apply_patch", map[string]string{"patchText": "patch"}}, true
	case "glob":
		return toolSpec{"Glob", nil}, true
	case "grep":
		return toolSpec{"Grep", nil}, true
	case "list":
		return toolSpec{"LS", nil}, true
	case "webfetch":
		return toolSpec{"WebFetch", map[string]string{"url": "url"}}, true
	case "websearch", "codesearch":
		return toolSpec{"WebSearch", map[string]string{"query": "query"}}, true
	}
	return toolSpec{}, false
}

// opencodePrompt is a prompt into an open OpenCode session, through its
// own server: POST /session/ID/prompt_async, with the basic auth that
// OPENCODE_SERVER_PASSWORD (and OPENCODE_SERVER_USERNAME, else
// "opencode") sets in the session's environment.
func opencodePrompt(session, prompt string, getenv func(string) string) (PromptRequest, error) {
	body, err := json.Marshal(map[string]any{"parts": []any{map[string]any{"type": "text", "text": prompt}}})
	if err != nil {
		return PromptRequest{}, err
	}
	req := PromptRequest{Method: "POST", Path: "/session/" + url.PathEscape(session) + "/prompt_async", Body: body}
	if pw := getenv("OPENCODE_SERVER_PASSWORD"); pw != "" {
		user := getenv("OPENCODE_SERVER_USERNAME")
		if user == "" {
			user = "opencode"
		}
		req.Header = append(req.Header, "Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte(user+":"+pw)))
	}
	return req, nil
}

// opencodePlugin is the plugin conch install opencode writes, whole: it
// runs conch hook opencode at each event.
//
//go:embed plugins/opencode.js
var opencodePlugin string

// opencodeInstall is conch install opencode: conch's plugin, a file conch
// owns, in the folder OpenCode loads plugins from.
var opencodeInstall = install.Recipe{
	Use:   "opencode [--project | --user] [--remove]",
	Short: "Put conch's plugin where OpenCode loads it",
	Long: `Write conch's plugin for OpenCode: ~/.config/opencode/plugins/conch.js ($XDG_CONFIG_HOME) with --user (the
default), .opencode/plugins/conch.js of the current folder with --project. The file is
conch's own, known by its first line; it runs conch hook opencode at
each event. ` + installPluginLong + opencodeAfter + installPluginExits,
	Where: "OpenCode folder",
	Runs:  "the plugin runs",
	MCP:   "opencode.json",
	Dir: func(e install.Env, project bool) string {
		return install.PluginDir(e, project, ".opencode/plugins", "XDG_CONFIG_HOME", ".config", "opencode/plugins")
	},
	Do: func(r *install.Run) ([]*install.Result, error) {
		done, err := r.Plugin("conch.js", opencodePlugin, []string{"session.created", "chat.message", "tool.execute.before",
			"tool.execute.after", "shell.env", "session.idle", "session.error", "permission.asked",
			"session.compacted", "session.deleted", "dispose"})
		if err != nil {
			return nil, err
		}
		// OpenCode's MCP servers are in opencode.json: the project's,
		// or the person's beside the plugins folder.
		config := filepath.Join(filepath.Dir(r.Dir), "opencode.json")
		if r.Project {
			config = filepath.Join(r.Cwd, "opencode.json")
		}
		return r.WithMCP(done, config, openCodeMCP)
	},
	After: opencodeAfter,
}

// opencodeAfter is said once conch install opencode put the plugin in.
const opencodeAfter = "OpenCode loads it when it starts."

// openCodeMCP is conch's server as OpenCode reads it: "mcp": {"conch":
// {"type": "local", "command": [conch, "mcp"], "enabled": true}}.
var openCodeMCP = install.MCP{Key: "mcp", Entry: func(conch string) []install.Field {
	return []install.Field{{Key: "type", Value: install.JSONOf("local")}, {Key: "command", Value: install.JSONOf([]string{conch, "mcp"})}, {Key: "enabled", Value: install.JSONOf(true)}}
}}
