// Package mcpserver is conch mcp: conch's tools over the Model Context
// Protocol, on the official Go SDK. Each tool is the conch command of the
// same name, run in this process (cli.Call) as the chat the session is,
// with the command's words, rules and exit code; its --json shape is the
// tool's structured content. It is linked into conch-mcp and the tests,
// never into conch: the SDK's packages do work at start-up (a JSON
// schema library, net/http, encoding/gob) that every command would pay.
package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/conch-sh/conch/cli"
	"github.com/conch-sh/conch/cli/natsbackend"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// Env is the process's cli.Env for conch-mcp: the backend's client linked
// (a tool call never replaces the server's process with conch-nats), and
// the server.
func Env() cli.Env {
	env := natsbackend.Env()
	env.ServeMCP = Serve
	return env
}

// Serve serves conch's tools on env's standard streams until the client
// goes.
func Serve(env cli.Env) error {
	t := &mcp.IOTransport{Reader: io.NopCloser(env.In), Writer: nopCloser{env.Out}}
	err := New(env).Run(context.Background(), t)
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// New is the server of one session: env is the harness's environment as
// the server process has it.
func New(env cli.Env) *mcp.Server {
	s := &server{env: env}
	srv := mcp.NewServer(&mcp.Implementation{Name: "conch", Title: "conch", Version: cli.Version},
		&mcp.ServerOptions{Instructions: render.MCPInstructions(s.startHealth())})
	s.tools(srv)
	return srv
}

// server is what the tools share: the environment, and the chat it made
// for a session that nothing else names.
type server struct {
	env cli.Env
	mu  sync.Mutex
	own string
}

// Default and longest blocking of wait_for: under Codex's default tool
// timeout (60 s), and at most ten minutes.
const (
	waitDefault = 50
	waitMost    = 600
)

// The tools' inputs: few words, as the commands' flags name them.
type (
	listIn struct {
		Working bool `json:"working,omitempty" jsonschema:"only the busy chats"`
	}
	sendIn struct {
		To         string `json:"to" jsonschema:"the chat (c_N), or a task this chat started (t_N)"`
		Text       string `json:"text" jsonschema:"the words, at most 4000 characters"`
		StartReply bool   `json:"start_reply,omitempty" jsonschema:"start the receiver's reply now"`
	}
	waitIn struct {
		ID      string `json:"id" jsonschema:"a chat (c_N) or a task this chat started (t_N)"`
		Timeout int    `json:"timeout_seconds,omitempty" jsonschema:"block at most this long (default 50, at most 600)"`
	}
	statusIn struct {
		ID    string `json:"id" jsonschema:"the chat (c_N)"`
		Since *int64 `json:"since,omitempty" jsonschema:"the events after this sequence"`
	}
	claimIn struct {
		Paths  []string `json:"paths" jsonschema:"files, folders or globs"`
		For    string   `json:"for,omitempty" jsonschema:"how long, 1m to 2h (default 30m)"`
		Reason string   `json:"reason,omitempty" jsonschema:"why, in a few words"`
	}
	releaseIn struct {
		Paths []string `json:"paths,omitempty" jsonschema:"the claims to end (none: all of this chat's)"`
	}
	messagesIn struct {
		ID string `json:"id,omitempty" jsonschema:"whose cards (default this chat's)"`
	}
	healthIn struct{}
)

// tools adds each tool: its name, what it does in one line, and the
// command it runs.
func (s *server) tools(srv *mcp.Server) {
	add(srv, s, "list_chats", "What the person's other chats are doing right now (conch chats list).",
		func(in listIn) []string { return flag([]string{"chats", "list"}, "--working", in.Working) })
	add(srv, s, "send_message", "Tell another of the person's chats something (conch chat message).",
		func(in sendIn) []string {
			return append(flag([]string{"chat", "message"}, "--start-reply", in.StartReply), "--", in.To, in.Text)
		})
	add(srv, s, "wait_for", "Wait until a chat stops working, or a task ends, and hear how (conch wait chat/task --timeout).",
		func(in waitIn) []string {
			kind := state.WaitChat
			if strings.HasPrefix(in.ID, "t_") {
				kind = state.WaitTask
			}
			t := in.Timeout
			if t <= 0 {
				t = waitDefault
			}
			t = min(t, waitMost)
			return []string{"wait", kind, "--timeout=" + strconv.Itoa(t) + "s", "--", in.ID}
		})
	add(srv, s, "status", "A chat's state, or the events after since (conch status).",
		func(in statusIn) []string {
			args := []string{"status"}
			if in.Since != nil {
				args = append(args, "--since="+strconv.FormatInt(*in.Since, 10))
			}
			return append(args, "--", in.ID)
		})
	add(srv, s, "claim", "Claim files for a time: the others keep off them (conch claim).",
		func(in claimIn) []string {
			args := []string{"claim"}
			if in.For != "" {
				args = append(args, "--for="+in.For)
			}
			if in.Reason != "" {
				args = append(args, "--reason="+in.Reason)
			}
			return append(append(args, "--"), in.Paths...)
		})
	add(srv, s, "release", "End this chat's claims (conch release).",
		func(in releaseIn) []string { return append([]string{"release", "--"}, in.Paths...) })
	add(srv, s, "messages", "The cards of this chat's messages, both directions (conch messages).",
		func(in messagesIn) []string {
			args := []string{"messages", "--"}
			if in.ID != "" {
				args = append(args, in.ID)
			}
			return args
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "conch_health", Description: "Which chat this session is, and whether its hooks report to conch."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ healthIn) (*mcp.CallToolResult, any, error) {
			return text(s.health(req.Session) + "\n"), nil, nil
		})
}

// add adds a tool that runs the command args(in) as the session's chat.
func add[In any](srv *mcp.Server, s *server, name, desc string, args func(In) []string) {
	mcp.AddTool(srv, &mcp.Tool{Name: name, Description: desc},
		func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
			return s.call(ctx, req.Session, name, args(in)), nil, nil
		})
}

func flag(args []string, name string, set bool) []string {
	if set {
		return append(args, name)
	}
	return args
}

func text(words string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: words}}}
}

// call runs one command as the session's chat and makes its answer the
// tool's: the words, the --json shape, and an error that says the exit
// code.
func (s *server) call(ctx context.Context, ss *mcp.ServerSession, tool string, args []string) *mcp.CallToolResult {
	env, own, err := s.acting(ss)
	if err != nil {
		return failed(err)
	}
	env.Context = ctx
	ans := cli.Call(env, args)
	notes := ""
	if own {
		// No hook says this chat's notes: each tool call is its step, and
		// its answer carries what the chat must hear now (messages due,
		// framed and fenced; waits that ended; notices).
		if n := cli.Call(env, []string{"notes"}); strings.TrimSpace(n.Words) != "" {
			notes = "\n" + n.Words
		}
	}
	if ans.Code != cli.ExitOK {
		res := text(render.MCPFailed(ans.Error, ans.Code) + "\n" + render.MCPWarnings(ans.Warnings) + notes)
		res.IsError = true
		res.StructuredContent = json.RawMessage(ans.JSON)
		return res
	}
	words := ans.Words
	if tool == "messages" {
		words = fencedCards(ans.JSON, words)
	}
	if words == "" {
		words = render.MCPDone + "\n"
	}
	words += render.MCPWarnings(ans.Warnings) + notes
	res := text(words)
	if len(ans.JSON) > 0 {
		// A client may hand its model the structured content in place of
		// the words (Claude Code 2.1.328 does): the words go in it too,
		// framed and fenced, and another chat's words in the shape are
		// quoted as inside a fence.
		res.StructuredContent = json.RawMessage(withWords(ans.JSON, words))
	}
	return res
}

// failed is a tool's answer when the server could not work out its chat.
func failed(err error) *mcp.CallToolResult {
	var se *state.Error
	code := cli.ExitFailed
	if errors.As(err, &se) && se.Kind == state.ErrUsage {
		code = cli.ExitUsage
	}
	res := text(render.MCPFailed(err.Error(), code))
	res.IsError = true
	res.StructuredContent = json.RawMessage(render.ErrorJSON(err.Error(), code))
	return res
}

// acting is the environment of a command run as the session's chat:
// CONCH_CHAT names it, and no session variable stands before it, so no
// tool ever acts as the person (cli.Serving; else the chat made for this
// session).
// own says the chat is the one the server made: no hook reports for it.
func (s *server) acting(ss *mcp.ServerSession) (env cli.Env, own bool, err error) {
	served, err := cli.Serving(s.env)
	if err != nil {
		return cli.Env{}, false, err
	}
	chat := served.Chat
	if chat == "" {
		if chat, err = s.ownChat(ss, served); err != nil {
			return cli.Env{}, false, err
		}
		own = true
	}
	return cli.ActingAs(s.env, chat), own, nil
}

// ownChat is the chat of a session that nothing names (an MCP-only
// client, or hooks that do not report): made once, as a hook makes a
// session's chat, keyed by the harness process so that a server the
// client starts again is the same chat.
func (s *server) ownChat(ss *mcp.ServerSession, served cli.Served) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.own != "" {
		return s.own, nil
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%d %d %s %s", served.Harness, served.HarnessStart, served.Unlinked, served.UnlinkedSession))
	args := []string{"chat", "new", "--title=" + render.MCPTitle(clientName(ss)), "--folder=" + s.env.Cwd,
		"--key=mcp-" + hex.EncodeToString(sum[:12]), "--mcp-only"}
	ans := cli.Call(cli.ActingAs(s.env, ""), args)
	if ans.Code != cli.ExitOK {
		return "", fmt.Errorf("this session's chat cannot be made: %s", ans.Error)
	}
	s.own = strings.TrimSpace(ans.Words)
	return s.own, nil
}

// clientName is the name the client gave itself, "" before it did.
func clientName(ss *mcp.ServerSession) string {
	if ss == nil || ss.InitializeParams() == nil || ss.InitializeParams().ClientInfo == nil {
		return ""
	}
	ci := ss.InitializeParams().ClientInfo
	if ci.Title != "" {
		return ci.Title
	}
	return ci.Name
}

// startHealth is the health the instructions say: only what is known as
// the server starts. A harness may start its servers before its hooks
// link the session (Codex 0.169 does), so a session with no chat found
// yet is told to ask conch_health, not that its hooks are off; one whose
// harness names a session no hook linked is told so.
func (s *server) startHealth() string {
	served, err := cli.Serving(s.env)
	if err == nil && served.Chat == "" && served.Unlinked == "" {
		return render.MCPHealthLater
	}
	return s.health(nil)
}

// health says which chat the session is and whether its hooks report.
func (s *server) health(ss *mcp.ServerSession) string {
	served, err := cli.Serving(s.env)
	if err != nil {
		return render.MCPFailed(err.Error(), cli.ExitFailed)
	}
	chat, how := served.Chat, served.How
	if chat == "" {
		s.mu.Lock()
		chat = s.own
		s.mu.Unlock()
	}
	title := ""
	if chat != "" {
		ans := cli.Call(cli.ActingAs(s.env, chat), []string{"chat", "show", "--", chat})
		var shown struct {
			Title string `json:"title"`
		}
		if ans.Code == cli.ExitOK && json.Unmarshal(ans.JSON, &shown) == nil {
			title = shown.Title
		}
	}
	fix := ""
	if how == "" || how == cli.ServedNamed && served.Unlinked != "" {
		fix = render.MCPFix(served.Unlinked)
	}
	if how == cli.ServedNamed && served.Unlinked != "" {
		how = ""
	}
	return render.MCPHealth(chat, title, how, served.UnlinkedVar, fix)
}

// withWords is a command's --json shape for a tool's structured content:
// the words a model reads added as "words", and the words of other chats
// it carries whole (a message's text, a stop's reason, a reply's end)
// written as they read inside a fence (render.Quote), so that a client
// that shows the shape to its model shows nothing that closes a fence or
// speaks as conch. Its version stays first.
func withWords(shape []byte, words string) []byte {
	var v any
	if json.Unmarshal(shape, &v) != nil {
		return shape
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return shape
	}
	delete(obj, "json_version")
	quoteIn(obj)
	if words != "" {
		obj["words"] = words
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the fences are the model's to read
	if enc.Encode(obj) != nil {
		return shape
	}
	return render.Versioned(bytes.TrimRight(b.Bytes(), "\n"))
}

func quoteIn(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && (k == "text" || k == "reason") {
				v[k] = render.Quote(s)
				continue
			}
			v[k] = quoteIn(x)
		}
	case []any:
		for i, x := range v {
			v[i] = quoteIn(x)
		}
	}
	return v
}

// fencedCards is messages' answer for a model: each card's line, then its
// words whole, fenced and quoted (render.CardsFenced); the command's own
// words when the shape cannot be read.
func fencedCards(shape []byte, words string) string {
	var out struct {
		Cards []state.Card `json:"cards"`
	}
	if json.Unmarshal(shape, &out) != nil {
		return words
	}
	return render.CardsFenced(out.Cards)
}
