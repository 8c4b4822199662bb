package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// waitKind is what `conch wait chat` and `conch wait task` differ in.
type waitKind struct {
	name, short, long string
}

var (
	waitChat = waitKind{state.WaitChat, "Wait until another of your chats stops working",
		`Wait until another of your chats stops working: its reply ends, it needs
you, it is stopped, or its reply's process is gone (it did not finish). It
still works while a reply runs, while a start-reply message is on its way
in, while it is stopped under conch but set to carry on (recovery), and
while it waits for something of its own.

As a chat that offers together (the person's own chat, with nobody else's
words in it), for one of yours; or as the person, for any chat.`}
	waitTask = waitKind{state.WaitTask, "Wait until a task this chat started ends",
		`Wait until a task this chat started ends: done, unverified, failed, stopped
or interrupted (running, waiting-room and waiting-ok are still going). As
the person, for any task.`}
)

const waitLongShared = `

A target that has already stopped working ends the wait at once, saying how
its last reply (or the task) ended. Otherwise the wait is registered, durably:
it survives this process, a restart and kill -9, and the same target again
is the same wait. A wait that would close a loop of waits (c_1 → c_2 → c_1,
or longer) is refused.

Blocking: with --timeout DUR (or as the person at a terminal, without
--detach) the command blocks until the wait ends and says how; at the timeout
it exits 124 and the wait stays registered, as if detached. Otherwise
(from a chat without --timeout, or with --detach) it registers and returns
at once: let go of the reply; when the wait ends, the chat's wake_cmd runs
and conch notes says how the other ended at the start of the next reply.

What the waiting chat hears: how the other ended, and the last {{ReplyTail}}
characters of its latest finished reply (a task's result), secrets taken
out, fenced and quoted. Outside taint on the target is carried into the
waiting chat before it reads them; a waiting chat that someone else's words
came into hears only how the other ended.

Exit codes: 0 done (registered, or ended), 2 usage, 3 no such chat (or not
yours), not offered here, or a loop of waits, 124 timed out (the wait stays
registered).`

// waitForOptions are conch wait chat's and conch wait task's words.
type waitForOptions struct {
	kind, id string        // what is waited for: state.WaitChat or WaitTask, and its id
	timeout  time.Duration // block at most this long (0: no limit)
	timed    bool          // --timeout given
	detach   bool

	IO      *render.Printer
	Home    homeRW
	Actor   state.Actor
	Context context.Context // ends a blocking wait (nil: never)
}

// newWaitForCmd is conch wait chat or conch wait task; runF, when not
// nil, gets the checked options instead of the wait (for tests).
func newWaitForCmd(a *app, k waitKind, runF func(*waitForOptions) error) *cobra.Command {
	o := &waitForOptions{kind: k.name}
	cmd := &cobra.Command{
		Use:         k.name + " ID [--timeout DUR] [--detach]",
		Short:       k.short,
		Long:        k.long + waitLongShared,
		Args:        exactArgs(1, "one "+k.name+" id"),
		Annotations: access(accessWrite),
	}
	cmd.Flags().DurationVar(&o.timeout, "timeout", 0, "block at most this long (e.g. 30s, 5m), then exit 124")
	cmd.Flags().BoolVar(&o.detach, "detach", false, "register the wait and return at once")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		o.id, o.timed = args[0], cmd.Flags().Changed("timeout")
		if o.timed && o.detach {
			return usage("give --timeout or --detach, not both")
		}
		if o.timed && o.timeout <= 0 {
			return usage("--timeout %s: want a duration above zero", o.timeout)
		}
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor, o.Context = a.printer(), a.homeRW(), a.actor(), a.env.Context
		return runWaitFor(o)
	})
	return cmd
}

// runWaitFor waits: blocking with --timeout, or as the person at a
// terminal without --detach; else it registers the wait and returns.
func runWaitFor(o *waitForOptions) error {
	block := o.timed || (o.Actor.Press() && !o.detach)
	return waitFor(o, o.kind, o.id, block, o.timeout)
}

// waitFor registers (or finds) the wait, and says how it ended, that it is
// registered, or blocks until it ends.
func waitFor(o *waitForOptions, kind, id string, block bool, timeout time.Duration) error {
	blocker := 0
	if block {
		blocker = os.Getpid()
	}
	var v *state.WaitView
	err := o.Home.update(func(tx *state.Tx) (err error) {
		v, err = tx.Waits().Start(o.Actor, kind, id, blocker)
		return err
	})
	if err != nil {
		return err
	}
	if v.Ending != nil {
		return sayEnded(o, v)
	}
	if !block {
		return o.IO.Value(render.WaitView(v), render.WaitRegistered(v))
	}
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	ready := func() {
		if !o.IO.JSON {
			_, _ = io.WriteString(o.IO.Err, render.WaitBlocking(v))
		}
	}
	ended, err := o.Home.home.Await(ctx, o.Actor, id, ready)
	if errors.Is(err, context.DeadlineExceeded) {
		// A wait that ended meanwhile is said; else it stays registered, as
		// if detached.
		err = o.Home.view(func(tx *state.View) (err error) {
			ended, err = tx.Waits().Of(o.Actor, id)
			return err
		})
		if err != nil {
			return err
		}
		if ended == nil || ended.Ending == nil {
			return &state.Error{Kind: state.ErrTimeout, Msg: render.WaitTimeout(v, timeout)}
		}
	}
	if err != nil {
		return err
	}
	return sayEnded(o, ended)
}

// sayEnded says how a wait ended, then marks it told: said first, so a
// command killed in between says it again next time.
func sayEnded(o *waitForOptions, v *state.WaitView) error {
	if err := o.IO.Value(render.WaitView(v), render.WaitBlock(*v.Ending)+"\n"); err != nil {
		return err
	}
	if !v.Recorded {
		return nil
	}
	return o.Home.update(func(tx *state.Tx) error {
		return tx.Waits().Told(o.Actor, v.Target, v.Ending.Ended)
	})
}

// waitListOptions are conch wait list's words: none.
type waitListOptions struct {
	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newWaitListCmd is conch wait list; runF, when not nil, runs instead.
func newWaitListCmd(a *app, runF func(*waitListOptions) error) *cobra.Command {
	o := &waitListOptions{}
	return &cobra.Command{
		Use:   "list",
		Short: "The waits of the chat acting (or the person's)",
		Long: `The waits of the chat acting (or, with no chat acting, the person's): those
registered, and those that ended and have not been said yet. A target that
stopped working without a command saying so (its reply's process gone) is
noticed now, and its wait ends.

Exit codes: 0 done, 3 no such chat.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runWaitList(o)
		}),
	}
}

// runWaitList settles the waits whose targets stopped unseen, then lists.
func runWaitList(o *waitListOptions) error {
	// Look without the lock; take it only when a target needs settling.
	var over bool
	err := o.Home.view(func(tx *state.View) (err error) {
		over, err = tx.Waits().Over(o.Actor)
		return err
	})
	if err != nil {
		return err
	}
	if over {
		if err := o.Home.update(func(tx *state.Tx) error {
			_, err := tx.Waits().Settle(o.Actor)
			return err
		}); err != nil {
			return err
		}
	}
	return o.Home.view(func(tx *state.View) error {
		vs, err := tx.Waits().List(o.Actor)
		if err != nil {
			return err
		}
		return o.IO.Value(render.WaitsView(vs), render.WaitList(vs, tx.Now()))
	})
}

// waitCancelOptions are conch wait cancel's words.
type waitCancelOptions struct {
	id string // the chat or task waited for

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newWaitCancelCmd is conch wait cancel; runF, when not nil, gets the
// options instead of the cancel (for tests).
func newWaitCancelCmd(a *app, runF func(*waitCancelOptions) error) *cobra.Command {
	o := &waitCancelOptions{}
	return &cobra.Command{
		Use:   "cancel ID",
		Short: "Cancel a wait of the chat acting (or the person's), by the target's id",
		Long: `Cancel a wait of the chat acting (or, with no chat acting, the person's),
registered or ended and not yet said, by the id of the chat or task it is
for. A chat that waited for nothing else no longer counts as working for
whoever waits on it.

Exit codes: 0 done, 3 no such wait, or no such chat.`,
		Args:        exactArgs(1, "the id of the chat or task waited for"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			o.id = args[0]
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runWaitCancel(o)
		}),
	}
}

// runWaitCancel cancels the wait.
func runWaitCancel(o *waitCancelOptions) error {
	var v *state.WaitView
	err := o.Home.update(func(tx *state.Tx) (err error) {
		v, err = tx.Waits().Cancel(o.Actor, o.id)
		return err
	})
	if err != nil {
		return err
	}
	return o.IO.Value(render.WaitView(v), render.WaitCancelled(v))
}
