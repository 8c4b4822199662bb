package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newHookClaude() *cobra.Command {
	return &cobra.Command{
		Use:   "claude",
		Short: "Claude Code's hook: reads one event on standard input and answers it",
		Long: `Claude Code's hook (conch install claude puts it in the settings). It
reads one hook event, JSON on standard input, does what the event means in
conch (a reply begins at UserPromptSubmit, each tool call is a step, Stop
ends the reply, StopFailure ends it failed, …), and answers in Claude
Code's own JSON: the notes as additionalContext; when another chat stopped
the reply, the pending tool denied and {"continue": false}; {"decision":
"block"} to deliver a message that starts a reply. The table of events,
and the Claude Code version it was tested against, are in conch help
integrations.

It never breaks the session it serves: bad input, an unknown event, a
locked home or any failure prints one warning line on standard error and
answers nothing.

Exit codes: 0, always.`,
		Args:        cobra.ArbitraryArgs, // a hook refuses nothing the harness passes
		Annotations: access(accessWrite),
		// Whatever the harness passes is the hook's to judge, never a
		// usage error: Codex's one argument is JSON, never a flag.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asksHelp(args) {
				return cmd.Help()
			}
			return a.runHook(state.HarnessClaude, nil, (*hook).handle)
		},
	}
}

// asksHelp says whether the words are a request for the command's help.
func asksHelp(args []string) bool {
	return len(args) == 1 && (args[0] == "-h" || args[0] == "--help")
}

// handle does what one event means, for Claude Code and for Codex alike
// (Codex's hooks speak the same protocol; where they differ, the harness
// decides).
func (h *hook) handle() error {
	h.event = h.p.str("hook_event_name")
	switch h.event {
	case "SessionStart":
		return h.sessionStart()
	case "UserPromptSubmit":
		return h.userPrompt()
	case "PreToolUse":
		return h.preTool()
	case "PostToolUse", "PostToolUseFailure":
		// A tool that failed (a test that fails, a command exiting 1)
		// fires PostToolUseFailure instead: the notes come all the same.
		return h.postTool()
	case "Notification", "PermissionRequest":
		return h.needsYou()
	case "PreCompact":
		return h.compacted()
	case "Stop", "SubagentStop":
		return h.stop()
	case "StopFailure":
		return h.stopFailure()
	case "SubagentStart":
		return h.subagentStart()
	case "SessionEnd":
		return h.sessionEnd()
	case "":
		return fmt.Errorf("the event has no hook_event_name")
	}
	return fmt.Errorf("unknown event %q: nothing done", h.event)
}

// SessionStart: the chat linked to the session is found or made, its id
// exported to the session's shell, and the session told who it is, how
// conch works and what it must hear now.
func (h *hook) sessionStart() error {
	var c *state.Chat
	in := h.sessionIn(true)
	in.Agent = "" // a session with --agent is still the main session
	err := h.update(func(tx *state.Tx) (err error) {
		c, _, err = tx.HarnessChat(in)
		if err != nil {
			return err
		}
		if c.Status == state.StatusStopped && c.Reply == nil {
			// The session is back (resumed, or cleared into this one).
			s := state.StatusIdle
			_, err = tx.SetChat(state.Actor{ID: c.ID}, c.ID, state.ChatChange{Status: &s})
		}
		return err
	})
	if err != nil {
		return err
	}
	exported := h.exportChat(c)
	return h.withNotes(c, func(notes string) *answer {
		return h.context(joinText(h.introduction(c, exported), render.Prompt, notes))
	}, stopAnswer)
}

// exportChat appends `export CONCH_CHAT=ID` to the file the harness
// sources into the session's shell, when it names one, and says whether
// it did. Some versions name none: the chat's id is in the context too.
func (h *hook) exportChat(c *state.Chat) bool {
	var path string
	for _, v := range h.envFiles() {
		if path = h.a.env.Getenv(v); path != "" {
			break
		}
	}
	if path == "" {
		return false
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		_, err = fmt.Fprintf(f, "export CONCH_CHAT=%s\n", c.ID)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		h.warn("%s", err.Error())
		return false
	}
	return true
}

func (h *hook) envFiles() []string {
	switch h.harness {
	case state.HarnessCodex:
		return []string{"CODEX_ENV_FILE", "CLAUDE_ENV_FILE"}
	case state.HarnessClaude:
		return []string{"CLAUDE_ENV_FILE"}
	}
	// Gemini CLI and Qwen Code source no file into their shells: a
	// CLAUDE_ENV_FILE there is a Claude Code session's that started them.
	return nil
}

// UserPromptSubmit: the person's own message starts a reply (the chat's
// title, if it has none, comes from it).
func (h *hook) userPrompt() error {
	var (
		c    *state.Chat
		made bool
	)
	prompt := h.p.str("prompt")
	person := !harnessPrompt(prompt) && !h.continued
	in := h.sessionIn(true)
	in.Agent = ""
	err := h.update(func(tx *state.Tx) (err error) {
		if c, made, err = tx.HarnessChat(in); err != nil {
			return err
		}
		if !person && c.Reply != nil && c.Reply.Alive() {
			// The harness goes on by itself (background work it was
			// waiting for ended): the same reply, not a new one.
			c, err = tx.Step(state.Actor{ID: c.ID}, state.StepIn{Family: "other", PPID: h.a.env.PPID})
			if err != nil {
				return err
			}
			return tx.HookedPrompt(c.ID, h.harness, prompt)
		}
		rs := state.ReplyStart{Person: person, PID: h.a.harnessPID(0)}
		if person {
			rs.Title = render.CutTitle(prompt, state.MaxTitle)
		}
		if f := h.folder(); !inside(f, c.Folder) {
			// The session moved out of its chat's folder (another
			// worktree): the reply works where the session is. A folder
			// inside the chat's is the same place, and paths stay
			// relative to the chat's folder.
			rs.Folder = f
		}
		if c, err = tx.StartReply(state.Actor{ID: c.ID}, rs); err != nil {
			return err
		}
		return tx.HookedPrompt(c.ID, h.harness, prompt)
	})
	if err != nil {
		return err
	}
	return h.withNotes(c, func(notes string) *answer {
		if made {
			// Its SessionStart was never seen (conch was set up mid-session).
			return h.context(joinText(h.introduceLate(c), render.Prompt, notes))
		}
		return h.context(notes)
	}, stopAnswer)
}

// conchShell says whether the event's tool call is a shell command that is
// only conch's own (conch chats list, conch chat message, …).
func (h *hook) conchShell(tool string) bool {
	return tool == "Bash" && h.p.str("tool_use_id") != "" && conchFamily(h.p.obj("tool_input").str("command")) != ""
}

// shellChat is the chat a command acts as that names chat (--chat or
// CONCH_CHAT) from inside a Claude Code session's shell
// (CLAUDE_CODE_SESSION_ID, which Claude Code sets there): a subagent
// shares its session's shell and so its CONCH_CHAT, and when the conch
// command running there now is a subagent's, it acts as the subagent's
// own chat.
func (a *app) shellChat(chat string) string {
	if chat == "" || a.home == nil {
		return chat
	}
	return a.home.ShellChat(state.HarnessClaude, a.env.Getenv("CLAUDE_CODE_SESSION_ID"), chat)
}

// introduceLate is what a session hears that conch first saw after its
// SessionStart (it could not take the lock, or conch was set up
// mid-session): nothing was exported to its shell, but Claude Code names
// the session there, so its conch commands act as its chat.
func (h *hook) introduceLate(c *state.Chat) string {
	if h.harness == state.HarnessClaude {
		return introduceLinked(c, "CLAUDE_CODE_SESSION_ID")
	}
	return h.introduction(c, false)
}

// introduction is what a session hears first of its chat: how its conch
// commands act as it, the harness's way (exported, whether conch wrote
// CONCH_CHAT to the harness's env file).
func (h *hook) introduction(c *state.Chat, exported bool) string {
	switch h.harness {
	case state.HarnessQwen:
		return introduceLinked(c, "QWEN_CODE_SESSION_ID")
	case state.HarnessGemini:
		return introduceRewritten(c)
	}
	return introduce(c, exported)
}

// harnessPrompt says whether a prompt is one the harness made itself, not
// the person's: Claude Code starts a turn with a <task-notification> when
// background work ends, and with a teammate's, another session's or an
// agent's message likewise.
func harnessPrompt(prompt string) bool {
	for _, tag := range []string{"<task-notification>", "<teammate-message", "<cross-session-message", "<agent-message"} {
		if strings.HasPrefix(prompt, tag) {
			return true
		}
	}
	return false
}

// PreToolUse: a step begins, of the tool's family, on its files. A reply
// another chat stopped ends the turn.
func (h *hook) preTool() error {
	tool := h.p.str("tool_name")
	family, files := h.toolStep(tool, h.p.obj("tool_input"))
	var (
		c    *state.Chat
		made bool
		v    *state.Verdict
	)
	err := h.update(func(tx *state.Tx) (err error) {
		if c, made, err = h.chat(tx, true); err != nil {
			return err
		}
		if v, err = h.guard(tx, c, tool, family, files); err != nil {
			return err
		}
		stepFiles := files
		if v != nil && v.Decision != state.GuardNote {
			stepFiles = nil // the edit may not happen: PostToolUse adds what did
		}
		if _, err = tx.Step(state.Actor{ID: c.ID}, state.StepIn{Family: family, Files: stepFiles, Tool: render.Clean(tool), PPID: h.a.env.PPID}); err != nil {
			return err
		}
		if h.conchShell(tool) {
			// The command it runs acts as whoever runs it: the session,
			// or its subagent (agent_id), which shares the session's shell.
			return tx.ShellStarted(h.harness, h.p.str("session_id"), h.p.str("tool_use_id"), h.p.str("agent_id"))
		}
		return nil
	})
	if se := stoppedNotice(err); se != nil {
		return h.sayStop(c, h.stopBeforeTool(*se))
	}
	late := err == nil && made && h.harness == state.HarnessClaude && h.p.str("agent_id") == ""
	if err == nil && v != nil {
		ans := h.guardAnswer(v)
		if late {
			ans.HookSpecificOutput.AdditionalContext = joinText(h.introduceLate(c), render.Prompt, ans.HookSpecificOutput.AdditionalContext)
		}
		return h.say(ans)
	}
	if late {
		// Neither SessionStart nor the prompt could take the lock: the
		// session hears now which chat it is.
		return h.say(h.context(joinText(h.introduceLate(c), render.Prompt)))
	}
	return err
}

// stopBeforeTool is how a stopped reply is told before a tool runs: the
// tool is denied with the notice, so it does not run (Claude Code runs
// the pending tool before it ends a turn on {"continue": false} alone),
// and for Claude Code the turn ends too. Claude Code puts both the denial
// and the stopReason before the model: the notice goes in the denial (the
// tool's result), the stopReason says only who, so the notice is said once.
// Codex refuses continue:false before a tool: the denial alone.
func (h *hook) stopBeforeTool(n state.StopNotice) *answer {
	deny := &specific{HookEventName: h.event, PermissionDecision: "deny", PermissionDecisionReason: render.StopLine(n)}
	if !h.stopEnds() {
		return &answer{HookSpecificOutput: deny}
	}
	ans := stopAnswer(render.StopWho(n))
	ans.HookSpecificOutput = deny
	return ans
}

// sayStop says a stop notice and records that the session heard it, so
// that the next reply's notes do not say it again: the model read it in
// the denied tool's result, the person saw it where the turn ended.
func (h *hook) sayStop(c *state.Chat, ans *answer) error {
	if err := h.say(ans); err != nil {
		return err
	}
	if c == nil || !h.stopEnds() {
		return nil // Codex's turn goes on past a denial: its next reply hears it
	}
	return h.update(func(tx *state.Tx) error { return tx.HeardStop(state.Actor{ID: c.ID}) })
}

func stoppedNotice(err error) *state.StopNotice {
	if se, ok := err.(*state.StoppedError); ok {
		return &se.Notice
	}
	return nil
}

// PostToolUse: the files the tool changed, outside taint from what it
// fetched, and then the notes.
func (h *hook) postTool() error {
	tool := h.p.str("tool_name")
	input := h.p.obj("tool_input")
	family, files := h.toolStep(tool, input)
	if resp := h.p.obj("tool_response"); family == "edit" && resp != nil {
		if f := resp.str("filePath"); f != "" {
			files = appendNew(files, h.abs(f))
		}
	}
	source := outsideSource(tool, input)
	// Most tool calls change nothing conch keeps (the step began at
	// PreToolUse): look first without the lock, as conch notes does.
	var c *state.Chat
	look := h.sessionIn(false)
	if err := h.a.view(func(tx *state.View) (err error) { c, err = tx.FindHarnessChat(look); return err }); err != nil {
		return err
	}
	shell := h.conchShell(tool)
	if c != nil && c.Reply != nil && source == "" && !shell && (family != "edit" || hasAll(c.Reply.Files, files)) {
		return h.withNotes(c, h.context, stopAnswer)
	}
	err := h.update(func(tx *state.Tx) (err error) {
		if c, _, err = h.chat(tx, true); err != nil {
			return err
		}
		actor := state.Actor{ID: c.ID}
		switch {
		case c.Reply == nil:
			// The turn goes on with no reply running: the person answered
			// a prompt that ended the last one as needs-you, or conch was
			// set up mid-turn. The tool that ran was a step of a reply.
			in := state.StepIn{Family: family, Files: files, Tool: render.Clean(tool), PPID: h.a.env.PPID}
			if _, err := tx.Step(actor, in); err != nil {
				return err
			}
		case family == "edit" && len(files) > 0:
			if _, err := tx.ChangedFiles(actor, files, h.a.env.PPID); err != nil {
				return err
			}
		}
		if source != "" {
			if _, err = tx.AddTaint(actor, c.ID, source, ""); err != nil {
				return err
			}
		}
		if shell {
			return tx.ShellsEnded(h.harness, h.p.str("session_id"), h.p.str("tool_use_id"), "")
		}
		return nil
	})
	if se := stoppedNotice(err); se != nil {
		return h.sayStop(c, stopAnswer(render.StopLine(*se)))
	}
	if err != nil {
		return err
	}
	return h.withNotes(c, h.context, stopAnswer)
}

// outsideSource is what a web tool read from outside: the URL fetched, or
// the search made.
func outsideSource(tool string, input payload) string {
	switch tool {
	case "WebFetch", "web_fetch":
		if u := input.str("url"); u != "" {
			return render.Clean(u)
		}
		// Gemini CLI's web_fetch takes a prompt that holds its URLs.
		if urls := promptURLs(input.str("prompt")); urls != "" {
			return render.Clean(urls)
		}
		return "web fetch"
	case "WebSearch", "google_web_search", "web_search":
		if q := render.Clean(input.str("query")); q != "" {
			return "web search: " + q
		}
		return "web search"
	}
	return ""
}

// promptURLs are the http and https URLs a prompt names, space-separated.
func promptURLs(prompt string) string {
	var urls []string
	for _, w := range strings.Fields(prompt) {
		w = strings.TrimRight(strings.TrimLeft(w, "(<[\"'"), ")>],.;:!?\"'")
		if strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://") {
			urls = appendNew(urls, w)
		}
	}
	return strings.Join(urls, " ")
}

// Notification (a permission prompt, the idle prompt, an MCP server asking
// for input) and Codex's PermissionRequest: the chat needs the person.
// Other notifications (auth_success) are not about the person.
func (h *hook) needsYou() error {
	switch h.p.str("notification_type") {
	case "", "permission_prompt", "idle_prompt", "elicitation_dialog":
	default:
		return nil
	}
	return h.update(func(tx *state.Tx) error {
		c, _, err := h.chat(tx, false)
		if err != nil || c == nil {
			return err
		}
		s := state.StatusNeedsYou
		_, err = tx.SetChat(state.Actor{ID: c.ID}, c.ID, state.ChatChange{Status: &s})
		return err
	})
}

// Stop (and SubagentStop, for a subagent's child chat): the reply ends,
// with the assistant's last words. A --start-reply message that waits for
// the chat is delivered instead, as a block: the harness goes on with it
// in a reply of the message's (once: not when it is going on because of a
// block already, stop_hook_active).
func (h *hook) stop() error {
	text := h.p.str("last_assistant_message")
	if text == "" && !h.p.has("last_assistant_message") {
		// Older versions send no last_assistant_message: read it from the
		// session's own file, which can lag the turn.
		path := h.p.str("agent_transcript_path")
		if path == "" || h.p.str("agent_id") == "" {
			path = h.p.str("transcript_path")
		}
		text = state.LastAssistantText(h.harness, path)
	}
	text = lastWords(strings.ReplaceAll(text, "\x00", " "))
	in := h.sessionIn(false)
	if h.event == "Stop" {
		in.Agent = ""
	}
	turn, goOn := h.p.str("turn_id"), in.Agent == "" && !h.p.flag("stop_hook_active")
	return h.update(func(tx *state.Tx) error {
		c, _, err := tx.HarnessChat(in)
		if err != nil || c == nil {
			return err
		}
		actor := state.Actor{ID: c.ID}
		if err := tx.ShellsEnded(h.harness, in.Session, "", in.Agent); err != nil {
			return err
		}
		if in.Agent == "" {
			if ended, err := tx.TurnEnded(h.harness, in.Session, turn); err != nil || ended {
				return err // the notify program ended this turn already
			}
		}
		if goOn {
			going, err := tx.ContinueWithMessage(actor, text, h.a.harnessPID(0))
			if err != nil {
				return err
			}
			if going {
				n, err := tx.Notes(actor)
				if err != nil {
					return err
				}
				return h.sayNotes(tx, actor, n, func(notes string) *answer {
					return &answer{Decision: "block", Reason: notes}
				})
			}
		}
		if in.Agent == "" {
			if _, err := tx.EndTurn(h.harness, in.Session, turn); err != nil {
				return err
			}
			if c.StopPending() == nil && h.backgroundRunning() {
				// The turn ends, but background work it started (an Agent
				// run in the background, the default now) goes on and will
				// wake the session when it ends: the chat is not done. Its
				// reply goes on, waiting, until a Stop with nothing left.
				_, err := tx.Step(actor, state.StepIn{Family: "wait", Tool: "background work", PPID: h.a.env.PPID})
				return err
			}
		}
		if c.Reply == nil && c.StopPending() == nil && text != "" {
			// The turn went on with no reply running (the person answered
			// a prompt that ended the last one): its last words still end
			// a reply, for whoever waits on the chat.
			if _, err := tx.StartReply(actor, state.ReplyStart{PID: h.a.harnessPID(0)}); err != nil {
				return err
			}
		}
		if _, err = tx.EndReply(actor, state.ReplyEnd{Outcome: state.OutcomeFinished, Text: text}); err != nil {
			return err
		}
		if in.Agent != "" && c.Parent != "" {
			// A subagent's work is done: its chat leaves the person's list
			// (its run is in its parent's log), as an archived chat.
			archived := true
			_, err = tx.SetChat(actor, c.ID, state.ChatChange{Archived: &archived})
		}
		return err
	})
}

// backgroundRunning says whether a Stop leaves background work of the
// session still in flight (Claude Code's background_tasks: running or
// pending agents, shells and the like).
func (h *hook) backgroundRunning() bool {
	var tasks []struct {
		Status string `json:"status"`
	}
	if json.Unmarshal(h.p["background_tasks"], &tasks) != nil {
		return false
	}
	for _, t := range tasks {
		switch t.Status {
		case "", "running", "pending":
			return true
		}
	}
	return false
}

// StopFailure: an API error (a rate limit, an overloaded server, a
// refused request) ended the turn instead of Stop. The reply ends as
// failed, so waits on the chat end and the list stops saying working.
// Claude Code reads nothing back.
func (h *hook) stopFailure() error {
	text := lastWords(h.p.str("last_assistant_message"))
	in := h.sessionIn(false)
	in.Agent = ""
	return h.update(func(tx *state.Tx) error {
		c, _, err := tx.HarnessChat(in)
		if err != nil || c == nil {
			return err
		}
		if c.Reply == nil {
			// SessionEnd, run beside this hook, ended it first.
			return tx.FailEndedReply(state.Actor{ID: c.ID}, text)
		}
		_, err = tx.EndReply(state.Actor{ID: c.ID}, state.ReplyEnd{Outcome: state.OutcomeFailed, Text: text})
		return err
	})
}

// SubagentStart: the subagent's child chat is made and its reply begins.
func (h *hook) subagentStart() error {
	in := h.sessionIn(true)
	if in.Agent == "" {
		return fmt.Errorf("the event names no agent_id")
	}
	return h.update(func(tx *state.Tx) error {
		c, _, err := tx.HarnessChat(in)
		if err != nil {
			return err
		}
		_, err = tx.StartReply(state.Actor{ID: c.ID}, state.ReplyStart{PID: h.a.harnessPID(0)})
		return err
	})
}

// SessionEnd: the session's chat, and any subagent of it still running,
// is stopped.
func (h *hook) sessionEnd() error {
	in := h.sessionIn(false)
	in.Agent = ""
	return h.update(func(tx *state.Tx) error {
		c, _, err := tx.HarnessChat(in)
		if err != nil || c == nil {
			return err
		}
		stopped := state.StatusStopped
		link, err := tx.SessionLinkOf(h.harness, in.Session)
		if err != nil {
			return err
		}
		for _, id := range link.Agents {
			child, err := tx.Chat(id)
			if err != nil || child.Reply == nil {
				continue
			}
			if _, err := tx.SetChat(state.Actor{ID: id}, id, state.ChatChange{Status: &stopped}); err != nil {
				return err
			}
		}
		_, err = tx.SetChat(state.Actor{ID: c.ID}, c.ID, state.ChatChange{Status: &stopped})
		return err
	})
}

// toolStep is the step family of a harness's tool, and the files it
// works on (absolute).
func (h *hook) toolStep(tool string, input payload) (family string, files []string) {
	file := func(key string) []string {
		if f := input.str(key); f != "" {
			return []string{h.abs(f)}
		}
		return nil
	}
	// Claude Code's tools, Codex's, and those of Gemini CLI and Qwen Code
	// (write_file, replace or edit, read_file, run_shell_command, …).
	switch tool {
	case "Edit", "Write", "MultiEdit", "write_file", "replace", "edit":
		return "edit", file("file_path")
	case "NotebookEdit", "notebook_edit":
		return "edit", file("notebook_path")
	case "Read", "read_file":
		return "read", file("file_path")
	case "NotebookRead":
		return "read", file("notebook_path")
	case "Grep", "Glob", "LS", "grep_search", "search_file_content", "glob", "list_directory", "read_many_files":
		return "read", nil
	case "WebFetch", "WebSearch", "web_fetch", "google_web_search", "web_search":
		return "browse", nil
	case "Bash", "BashOutput", "KillShell", "KillBash", "shell", "exec_command", "local_shell", "run_shell_command":
		command := input.str("command")
		if commits(command) {
			return "edit", nil
		}
		if f := conchFamily(command); f != "" {
			return f, nil
		}
		return "run", nil
	case "apply_patch":
		var out []string
		for _, f := range patchFiles(input.str("command") + input.str("input") + input.str("patch")) {
			out = appendNew(out, h.abs(f))
		}
		return "edit", out
	}
	return "other", nil
}

// commits says whether a shell command commits, or otherwise rewrites the
// work tree through git: a commit counts as editing (SPEC §1).
func commits(command string) bool {
	if command == "" {
		return false
	}
	for _, part := range shellParts(command) {
		words := strings.Fields(part)
		for len(words) > 0 && strings.Contains(words[0], "=") {
			words = words[1:] // VAR=value before the command
		}
		if len(words) == 0 || (words[0] != "git" && !strings.HasSuffix(words[0], "/git")) {
			continue
		}
		if gitRewrites[gitSubcommand(words[1:])] {
			return true
		}
	}
	return false
}

// conchFamily is the family of a shell command that is only conch's own
// commands (conch chats list, conch chat message, …): talking with the
// other chats, or waiting for one, not running commands in the folder
// (the other chats would be told to wait for it). It is "" for any other
// command, one that runs anything beside conch included.
func conchFamily(command string) string {
	family := ""
	for _, part := range shellParts(command) {
		words := strings.Fields(part)
		for len(words) > 0 && strings.Contains(words[0], "=") {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		if words[0] != "conch" && !strings.HasSuffix(words[0], "/conch") {
			if words[0] == "cd" || words[0] == "true" || words[0] == "echo" && !strings.Contains(part, ">") {
				continue // moving about, or words piped to conch, run nothing
			}
			return ""
		}
		if family == "" {
			family = "talk"
		}
		if len(words) > 1 && words[1] == "wait" {
			family = "wait"
		}
	}
	return family
}

// shellParts are a shell command's simple commands, split at ; & | and
// newlines and parentheses (a rough cut: quotes are not read).
func shellParts(command string) []string {
	return strings.FieldsFunc(command, func(r rune) bool {
		return r == ';' || r == '&' || r == '|' || r == '\n' || r == '(' || r == ')'
	})
}

// gitRewrites are the git subcommands that change the work tree's files.
var gitRewrites = map[string]bool{
	"commit": true, "merge": true, "rebase": true, "cherry-pick": true, "revert": true, "am": true,
	"pull": true, "stash": true, "reset": true, "checkout": true, "switch": true, "restore": true,
}

// gitSubcommand is the first word after git's own options (-C DIR and
// -c NAME=VALUE take one more word).
func gitSubcommand(words []string) string {
	for i := 0; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-C" || w == "-c" || w == "--git-dir" || w == "--work-tree":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			return w
		}
	}
	return ""
}

// patchFiles are the files an apply_patch patch names: added, updated,
// deleted, and moved to.
func patchFiles(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, p := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if strings.HasPrefix(line, p) {
				if f := strings.TrimSpace(strings.TrimPrefix(line, p)); f != "" {
					out = appendNew(out, f)
				}
			}
		}
	}
	return out
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// PreCompact: the session's history is compacted (log only).
func (h *hook) compacted() error {
	in := h.sessionIn(false)
	return h.update(func(tx *state.Tx) error { return tx.HarnessCompacted(in) })
}

// inside says whether path p is dir or a folder inside it.
func inside(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func hasAll(list, want []string) bool {
	for _, w := range want {
		if !slices.Contains(list, filepath.Clean(w)) {
			return false
		}
	}
	return true
}
