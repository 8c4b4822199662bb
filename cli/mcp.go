package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

// conchMCP is the conch that links the MCP SDK.
const conchMCP = "conch-mcp"

// mcpOptions are conch mcp's words.
type mcpOptions struct {
	chat string // --chat: the chat to serve as, whatever the session's variables say

	Env Env // the streams and the world the server is handed
}

// newMcpCmd is conch mcp; runF, when not nil, gets the checked options
// instead of the server (for tests).
func newMcpCmd(a *app, runF func(*mcpOptions) error) *cobra.Command {
	o := &mcpOptions{}
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve conch's tools to an agent over MCP (standard input and output)",
		Long: `Serve conch's tools over the Model Context Protocol on standard input and
output, for an agent that takes tools from MCP servers (conch install NAME
puts it in a harness's MCP settings; conch install mcp --print shows the
block for any other client): list_chats, send_message, wait_for, status,
claim, release, messages and conch_health. Each is the conch command of
the same name, with its words, its rules and its --json shape as the
tool's structured content; a command that exits other than 0 is a tool
error that says its code.

The server acts as one chat, the session's, never more: the chat the
harness session's variables name (as a hook linked it), else CONCH_CHAT,
else the chat whose reply runs in the harness process that started the
server; a client with no hooks reporting gets a chat of its own, made once
for its process. No tool acts as the person. conch_health says whether the
session's hooks report to conch, and how to fix it when they do not.

conch mcp runs conch-mcp (beside conch, or on PATH), which links the MCP
SDK: plain conch does not pay its start-up.

Exit codes: 0 the client went away, 1 conch-mcp cannot be run, 2 usage.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			if f := cmd.Flag("chat"); f != nil && f.Changed {
				o.chat = a.chat
			}
			if runF != nil {
				return runF(o)
			}
			o.Env = a.env
			return runMcp(o)
		}),
	}
}

// runMcp serves, or hands over to conch-mcp.
func runMcp(o *mcpOptions) error {
	// The chat is worked out at each call (cli.Serving), not here: the
	// session's variables may name a chat no hook has linked yet.
	env := o.Env
	if o.chat != "" {
		env.Getenv = actingAs(env.Getenv, o.chat) // --chat, which wins
	}
	if env.ServeMCP != nil {
		return env.ServeMCP(env)
	}
	args := []string{"mcp"}
	if o.chat != "" {
		args = append(args, "--chat", o.chat)
	}
	err := execBeside(o.Env, conchMCP, args)
	if errors.Is(err, errNoExec) {
		return fmt.Errorf("this system cannot run %s in conch's place (Windows has no exec): run %s mcp itself", conchMCP, conchMCP)
	}
	return fmt.Errorf("%s cannot be run: %v (go install github.com/conch-sh/conch/cmd/conch-mcp)", conchMCP, err)
}

// actingAs is getenv for a process that acts as chat whatever runs it:
// CONCH_CHAT names it, and no harness session variable stands before it.
func actingAs(getenv func(string) string, chat string) func(string) string {
	hidden := harness.SessionVars()
	return func(k string) string {
		if k == "CONCH_CHAT" {
			return chat
		}
		for _, h := range hidden {
			if k == h {
				return ""
			}
		}
		return getenv(k)
	}
}

// ActingAs is env changed so that every command run with it acts as chat
// ("": as nobody, the person), whatever the harness's variables say.
func ActingAs(env Env, chat string) Env {
	env.Getenv = actingAs(env.Getenv, chat)
	return env
}

// How a server found the chat it serves (Served.How).
const (
	ServedSession = "session" // a harness session a hook linked to the chat
	ServedNamed   = "named"   // CONCH_CHAT
	ServedProcess = "process" // the harness process that runs the chat's reply
)

// Served is the chat a process started by a harness acts as (conch mcp),
// worked out as a command in the harness's shell works it out.
type Served struct {
	Chat string // "" when nothing names one
	How  string // ServedSession, ServedNamed or ServedProcess
	// Unlinked names the harness whose session variable names a session
	// that no hook linked to a chat: its hooks are not reporting.
	Unlinked, UnlinkedVar, UnlinkedSession string
	// Harness is the harness process: the parent of this one, past a
	// shell that only ran it; HarnessStart, when it started.
	Harness      int
	HarnessStart uint64
}

// Serving works out the chat a process that a harness started acts as:
// its session variables (as a hook linked them), then CONCH_CHAT (a
// session variable never raises trust: SessionConflict), then the chat
// whose running reply the harness process runs.
func Serving(env Env) (Served, error) {
	a := &app{env: env}
	var s Served
	h, err := a.openHome()
	if err != nil {
		return s, err
	}
	a.home = h
	named := env.Getenv("CONCH_CHAT")
	if named != "" && !state.ValidID(named) {
		return s, usage("CONCH_CHAT %q is not a chat id (c_N or t_N)", named)
	}
	s.Unlinked, s.UnlinkedVar, s.UnlinkedSession = harness.UnlinkedSession(h.Store(), env.Getenv)
	s.Harness = proc.HarnessPID(env.PPID)
	s.HarnessStart, _ = proc.Start(s.Harness)
	if a.chat = a.sessionChat(); a.chat != "" {
		s.Chat, s.How = a.chat, ServedSession
		if named != "" && named != a.chat {
			if err := a.sessionOrNamed(named); err != nil {
				return s, err
			}
			if a.chat == named {
				s.Chat, s.How = named, ServedNamed
			}
		}
		return s, nil
	}
	if named != "" {
		s.Chat, s.How = named, ServedNamed
		return s, nil
	}
	err = h.View(func(tx *state.View) (err error) {
		s.Chat, err = tx.Chats().RunningIn(s.Harness, s.HarnessStart)
		return err
	})
	if s.Chat != "" {
		s.How = ServedProcess
	}
	return s, err
}
