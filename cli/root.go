// Package cli is conch's command line: one file per verb, each with its
// options, its cobra constructor and its run function, which calls package
// state and prints through package render (cli/deps.go says how a run
// reaches what it uses: on its options, not on app). Nothing below Main
// exits the process; Main maps every error to its exit code in one place.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/conch-sh/conch/internal/handover"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
)

// Exit codes (SPEC §2).
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitRefused     = 3
	ExitNeedsPerson = 4
	ExitStopped     = 5
	ExitTimeout     = 124
)

// Env is everything conch takes from the world outside: streams,
// environment, clock, host name, working folder, parent process. System
// fills it from the real process; tests fill it as they like.
type Env struct {
	In       io.Reader
	Out, Err io.Writer
	Terminal bool // standard input is a terminal
	Getenv   func(string) string
	// Environ is the whole environment (os.Environ), read only where a
	// harness's session starts (its own variables, for a resume); nil:
	// none.
	Environ  func() []string
	Now      func() time.Time
	Hostname string
	Cwd      string
	PPID     int
	// PID is this process, as the receipts of what it marks said name
	// it (state's receipts.go); 0 in a test's runs in its own process.
	PID int
	// Exe is the conch binary, asked only by what needs it (a detached
	// gc, conch-nats looked for beside it): a command that never asks
	// never reads /proc/self/exe. nil: not known.
	Exe func() string
	FS  store.FS // nil: the real file system (tests put a failing one)
	// OpenBackend opens a home on a NATS server (natsstore.OpenBackend);
	// nil in conch itself, which then runs conch-nats for a home that
	// names a backend (backend.go): linking the NATS client would cost
	// every local command its start-up.
	OpenBackend OpenBackend
	// Exec replaces the process (syscall.Exec); nil: it cannot.
	Exec func(path string, argv, env []string) error
	// ServeMCP serves conch's tools over the Model Context Protocol on
	// In and Out until the client goes (cli/mcpserver, linked into
	// conch-mcp); nil in conch itself, which then runs conch-mcp in its
	// place (mcp.go): the SDK's start-up would cost every command.
	ServeMCP func(Env) error
	// Context, when set, ends a blocking wait early (an MCP call its
	// client cancelled); nil: only its timeout does.
	Context context.Context
	// Keep, when set, is handed the JSON --json would print of the value
	// a command answers with words (render.Printer.Keep).
	Keep func(json []byte)
	// Failed, when set, is told the error a run ended with, a hook's
	// (which the hook only warns of) included: a test judges errors by
	// their type through it (errors.Is, errors.As), never by their words.
	Failed func(err error)
}

// System is the Env of the running process.
func System() Env {
	host, _ := os.Hostname()
	cwd, _ := os.Getwd()
	return Env{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		Terminal: term.IsTerminal(int(os.Stdin.Fd())),
		Getenv:   os.Getenv, Environ: os.Environ, Now: time.Now, Hostname: host, Cwd: cwd, PPID: os.Getppid(), PID: os.Getpid(), Exe: sync.OnceValue(executable),
		Exec: execProcess,
	}
}

// executable is the running binary, "" when it cannot be told.
func executable() string {
	exe, _ := os.Executable()
	return exe
}

// Access is what a command does with the home. Every command declares it,
// as the annotation "access"; TestEveryCommandDeclaresAccess holds the tree
// to it.
const (
	accessNone  = "none"  // does not open the home
	accessRead  = "read"  // reads it, takes no lock, creates nothing
	accessWrite = "write" // changes it, in transactions under the lock
)

func access(a string) map[string]string { return map[string]string{"access": a} }

// app is one run of conch, its wiring: its environment, its global flags,
// the home and what the run has done to it. A verb's run takes what it
// uses from app on its options (cli/deps.go), never app itself.
type app struct {
	env  Env
	chat string
	home *state.Home
	// printed is the run's printer once made (printerMade), inside app so
	// that making it allocates nothing: a verb's options take it eagerly.
	printed render.Printer
	// backendTimeout bounds reaching the backend and each request to it
	// (0: the store's default); a hook's is its time budget.
	backendTimeout time.Duration
	// harness is the process running the chat when an adapter knows it
	// better than the parent of this command (Codex's TUI, whose hooks
	// its long-lived daemon runs).
	harness int
	// config is the home's config.toml once read (localConfig).
	config *state.LocalConfig

	// The flags last, side by side: app then fits the allocator's 320-byte
	// class, as it did before it held the printer.
	json        bool
	printerMade bool
	// committed is set once a transaction of this command has committed:
	// a failure after that is a warning, never exit 1 (SPEC §2: a command
	// that failed wrote nothing).
	committed bool
	// noHome: the command does not open the home (its access is none).
	noHome bool
	// hooked: a hook runs (it exits 0 whatever happens); unsaid: its
	// answer could not be written, so what it marked is not confirmed.
	hooked, unsaid bool
}

// Main runs conch with args and returns the exit code.
func Main(args []string, env Env) int {
	// The command's work stays on one thread: a thread's system calls are
	// then the command's, in order, which is how the fault campaign
	// (cli/fault_test.go, strace's per-thread counts) names each one.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	growStack(len(args))
	a := &app{env: env}
	code := a.main(args)
	if a.home != nil {
		// A home on a backend sends its last unlock as it closes (one
		// left open at exit would leave the lock to run out), and before
		// the receipts go: a command killed while letting go of the lock
		// has said nothing that stands.
		a.home.Close()
	}
	if code == ExitOK {
		code = a.confirm()
	}
	return code
}

// confirm is a command's last act once it is to exit 0 with its output
// out: the receipts of what it marked said are taken away (state's
// receipts.go), so the marks stand. A hook whose answer was not written
// leaves them, and what it would have said is said again. A notes whose
// receipt cannot be taken away exits 1: its output is not to be used, and
// the next notes says the same again.
func (a *app) confirm() int {
	if a.home == nil || !a.home.Unconfirmed() {
		return ExitOK
	}
	if a.unsaid {
		return ExitOK
	}
	err := a.home.Confirm()
	if err == nil {
		return ExitOK
	}
	if a.hooked {
		fmt.Fprintf(a.env.Err, "conch: warning: what this hook said may be said again: %v\n", err)
		return ExitOK
	}
	a.printer().Error(fmt.Sprintf("what was said is not confirmed (%v): it will be said again", err), ExitFailed)
	return ExitFailed
}

// stackRoom is about the stack a hook's deepest call takes (its event's
// decoding under the lock's transaction): BenchmarkHot's homes.
const stackRoom = 16 << 10

// stackSink keeps growStack's frame from being optimised away.
var stackSink byte

// growStack grows this goroutine's stack, while it is one frame deep, to
// what the command will take. A new goroutine's stack starts at 2 KiB and
// doubles when a call needs more: each time the runtime copies the whole
// stack and walks every frame on it through the function tables, pages a
// fresh process has not touched yet. One step here, with nothing on the
// stack, costs a fraction of the three it saves deep in the work (issue
// 25: a hook's event is about 1 % cheaper).
//
//go:noinline
func growStack(n int) {
	var room [stackRoom]byte
	room[n%stackRoom] = 1
	stackSink = room[(n+1)%stackRoom]
}

// main is Main without the last act.
func (a *app) main(args []string) int {
	env := a.env
	if code, ran := a.runOnBackend(args); ran {
		return code
	}
	root := a.newRoot(args)
	root.SetArgs(args)
	root.SetIn(env.In)
	root.SetOut(env.Out)
	root.SetErr(env.Err)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ran *runError
	if errors.As(err, &ran) {
		err = ran.err
	} else {
		// cobra's own errors are all about the words typed: usage.
		err = &state.Error{Kind: state.ErrUsage, Msg: err.Error()}
	}
	if env.Failed != nil {
		env.Failed(err)
	}
	code := exitCode(err)
	if code == ExitOK {
		return ExitOK
	}
	if code == ExitFailed && a.committed {
		// What fails once a change has committed (its answer could not be
		// written, a read after it) cannot undo it: the command did what
		// it was asked, and says what went wrong after (issue 19).
		warnCommitted(a.printer(), err)
		return ExitOK
	}
	a.printer().Error(render.ErrorText(err), code)
	return code
}

func (a *app) printer() *render.Printer {
	if !a.printerMade {
		a.printed = render.Printer{Out: a.env.Out, Err: a.env.Err, JSON: a.json, Keep: a.env.Keep}
		a.printerMade = true
	}
	return &a.printed
}

// exitCode is the one place that maps errors to exit codes.
func exitCode(err error) int {
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, state.ErrUsage):
		return ExitUsage
	case errors.Is(err, state.ErrNoChat), errors.Is(err, state.ErrRefused):
		return ExitRefused
	case errors.Is(err, state.ErrNeedsPerson):
		return ExitNeedsPerson
	case errors.Is(err, state.ErrStopped):
		return ExitStopped
	case errors.Is(err, state.ErrTimeout):
		return ExitTimeout
	}
	return ExitFailed // a lock not had in time included
}

// runError marks an error that a command's run returned, as against one
// cobra found in the words typed.
type runError struct{ err error }

func (e *runError) Error() string { return e.err.Error() }
func (e *runError) Unwrap() error { return e.err }

func usage(format string, args ...any) error {
	return &state.Error{Kind: state.ErrUsage, Msg: fmt.Sprintf(format, args...)}
}

const rootLong = `conch lets the AI chats you run side by side know about each other: what
the others are doing, which files they change, messages between them,
waiting for one another, stopping one, and a log of state changes.

Every command is short-lived: it reads and writes records under CONCH_HOME
(default ~/.conch), guarded by file locks, and exits.

A command acts as a chat when --chat ID is given, when it runs in the
shell of a harness session linked to a chat (the harness's session
variable, under Environment), or when CONCH_CHAT is set, in that order;
otherwise it acts as the person at the terminal. A session variable never
raises trust: when CONCH_CHAT names a chat less yours than the session's
(an outside agent's, one with a guest's words), CONCH_CHAT stands, with a
warning. In a Claude Code or Qwen Code session's shell, a conch command
its subagent runs acts as the subagent's chat.

Environment:
  CONCH_HOME   the state folder (default ~/.conch)
  CONCH_CHAT   the chat a command acts as
{{SessionVariables}}
  CONCH_NOW    pins "now" (RFC 3339); for tests

Exit codes:
  0    done
  1    failed (I/O, a corrupt record, a lock not had in time)
  2    usage: unknown flag, missing argument, bad value
  3    refused: no such chat (or not yours), not offered here, a bound, plan mode
  4    needs the person: a request waits for conch confirm
  5    this chat's reply was stopped by another chat: end the reply now
  124  conch wait timed out (the wait stays registered)

Start with: conch demo`

// newRoot builds the command tree for a run with args (nil: the whole).
func (a *app) newRoot(args []string) *cobra.Command {
	root := &cobra.Command{
		Use:           "conch",
		Short:         "Let the AI chats you run side by side know about each other",
		Long:          rootLong,
		SilenceErrors: true,
		SilenceUsage:  true,
		Annotations:   access(accessNone),
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			return a.prepare(cmd)
		},
	}
	root.PersistentFlags().BoolVar(&a.json, "json", false, "print JSON (see conch help json)")
	root.PersistentFlags().StringVar(&a.chat, "chat", "", "act as this chat (default $CONCH_CHAT)")
	root.CompletionOptions.DisableDefaultCmd = true
	withNumbers(root)

	// The hot commands (a harness runs them at every step) build only
	// their own branch of the tree: the whole of it is a few hundred
	// allocations, and in a new process every fresh page is a fault.
	if build, ok := a.hotCommands()[handover.FirstWord(args)]; ok {
		root.AddCommand(build())
		return root
	}
	chat := newChatGroup(a)
	root.AddCommand(chat, newChatsGroup(a), newTaskGroup(a), newReplyGroup(a),
		newStepCmd(a, nil), newNotesCmd(a, nil), newPromptCmd(a, nil), newTasksCmd(a, nil),
		newVersionCmd(a, nil), newCompletionCmd(a, root, nil), newDoctorCmd(a, nil), newDemoCmd(a, nil),
		newClaimCmd(a, nil), newReleaseCmd(a, nil), newClaimsCmd(a, nil), newTopCmd(a, nil), newNotifyGroup(a), newBackendGroup(a), newMcpCmd(a, nil))
	for _, more := range [](func(*app, *cobra.Command) []*cobra.Command){
		messagesCommands, waitsCommands, logCommands, hooksCommands,
	} {
		root.AddCommand(more(a, chat)...)
	}
	root.AddCommand(helpTopics()...)
	return root
}

// hotCommands are the top-level commands that may be built alone.
func (a *app) hotCommands() map[string]func() *cobra.Command {
	return map[string]func() *cobra.Command{
		"step":    func() *cobra.Command { return newStepCmd(a, nil) },
		"notes":   func() *cobra.Command { return newNotesCmd(a, nil) },
		"version": func() *cobra.Command { return newVersionCmd(a, nil) },
		"prompt":  func() *cobra.Command { return newPromptCmd(a, nil) },
		"tasks":   func() *cobra.Command { return newTasksCmd(a, nil) },
		"chats":   func() *cobra.Command { return newChatsGroup(a) },
		"reply":   func() *cobra.Command { return newReplyGroup(a) },
		"task":    func() *cobra.Command { return newTaskGroup(a) },
		"hook":    func() *cobra.Command { return newHookGroup(a) },
	}
}

func newChatGroup(a *app) *cobra.Command {
	chat := group("chat", "One chat: register, change, show, message, stop")
	chat.AddCommand(newChatNewCmd(a, nil), newChatShowCmd(a, nil), newChatSetCmd(a, nil), newChatTaintCmd(a, nil), newChatDeleteCmd(a, nil))
	return chat
}

func newChatsGroup(a *app) *cobra.Command {
	chats := group("chats", "The person's other chats")
	chats.AddCommand(newChatsListCmd(a, nil))
	return chats
}

func newTaskGroup(a *app) *cobra.Command {
	task := group("task", "Tasks a chat started")
	task.AddCommand(newTaskNewCmd(a, nil), newTaskSetCmd(a, nil))
	return task
}

func newReplyGroup(a *app) *cobra.Command {
	reply := group("reply", "A chat's reply begins and ends")
	reply.AddCommand(newReplyStartCmd(a, nil), newReplyEndCmd(a, nil))
	return reply
}

func group(name, short string) *cobra.Command {
	return &cobra.Command{
		Use: name, Short: short, Annotations: access(accessNone),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
}

// prepare checks the words common to every command and opens the home as
// the command's access says.
func (a *app) prepare(cmd *cobra.Command) error {
	acc := cmd.Annotations["access"]
	a.noHome = acc == accessNone
	named := "" // CONCH_CHAT, when a harness session's chat stands before it
	if a.chat == "" {
		a.chat = a.sessionChat()
		if env := a.env.Getenv("CONCH_CHAT"); a.chat != "" && env != "" && env != a.chat {
			named = env
		}
	}
	if a.chat == "" {
		a.chat = a.env.Getenv("CONCH_CHAT")
	}
	if a.chat != "" && !state.ValidID(a.chat) {
		return &runError{usage("--chat %q is not a chat id (c_N or t_N)", a.chat)}
	}
	if named != "" && !state.ValidID(named) {
		return &runError{usage("CONCH_CHAT %q is not a chat id (c_N or t_N)", named)}
	}
	if acc == accessNone {
		return nil
	}
	if a.home == nil { // a home on a backend may be open already (records)
		h, err := a.openHome()
		if err != nil {
			return &runError{err}
		}
		a.home = h
	}
	if named != "" {
		if err := a.sessionOrNamed(named); err != nil {
			return &runError{err}
		}
	}
	a.chat = a.shellChat(a.chat)
	return nil
}

// sessionOrNamed settles a harness session's chat (a.chat) against the
// chat CONCH_CHAT names: a session variable never raises trust, so the
// session's chat stands only when it is no more the person's than the
// named one; otherwise CONCH_CHAT stands, with a warning. An outside
// agent's shell that inherited one of the person's session variables
// acts as the outside agent's chat.
func (a *app) sessionOrNamed(named string) error {
	var more bool
	err := a.home.View(func(tx *state.View) error {
		session, err := tx.Chats().Get(a.chat)
		if err != nil {
			return nil // the session's chat is gone: the link names nothing
		}
		other, err := tx.Chats().Get(named)
		if err != nil && !errors.Is(err, state.ErrNoChat) {
			return err
		}
		more = other == nil || session.MoreYours(other)
		return nil
	})
	if err != nil || !more {
		return err
	}
	a.printer().Warn("%s", render.SessionConflict(a.chat, named))
	a.chat = named
	return nil
}

func (a *app) openHome() (*state.Home, error) {
	dir := a.env.Getenv("CONCH_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("no CONCH_HOME and no home folder: %v", err)
		}
		dir = filepath.Join(home, ".conch")
	}
	now, err := a.clock()
	if err != nil {
		return nil, err
	}
	return state.Open(state.Options{Dir: dir, Now: now, Wall: a.env.Now, Hostname: a.env.Hostname, Getenv: a.env.Getenv, Exe: a.env.Exe, FS: a.env.FS, Words: render.Notice, Backend: a.backend, Reach: a.reach(), PID: a.env.PID, Config: a.config})
}

// clock is the command's clock: the time CONCH_NOW names, when set.
func (a *app) clock() (func() time.Time, error) {
	s := a.env.Getenv("CONCH_NOW")
	if s == "" {
		return a.env.Now, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil, usage("CONCH_NOW %q is not an RFC 3339 time", s)
	}
	return func() time.Time { return t }, nil
}

// actor is who runs the command.
func (a *app) actor() state.Actor {
	return state.Actor{ID: a.chat, Terminal: a.env.Terminal}
}

// run wraps a command's work so its errors are told from cobra's.
func run(f func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := checkArgs(args); err != nil {
			return &runError{err}
		}
		if err := f(cmd, args); err != nil {
			return &runError{err}
		}
		return nil
	}
}

// checkArgs refuses arguments that are not valid UTF-8 or hold NUL bytes.
func checkArgs(args []string) error {
	for _, s := range args {
		if !isText(s) {
			return usage("argument %q is not valid UTF-8 text", s)
		}
	}
	return nil
}

func isText(s string) bool {
	return !strings.ContainsRune(s, 0) && utf8.ValidString(s)
}

// exactArgs is cobra.ExactArgs with the usage error kind.
func exactArgs(n int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usage("%s takes %s (got %d arguments)", cmd.CommandPath(), names, len(args))
		}
		return nil
	}
}

func maxArgs(n int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usage("%s takes at most %s (got %d arguments)", cmd.CommandPath(), names, len(args))
		}
		return nil
	}
}
