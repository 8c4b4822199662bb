package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

const topLong = `A live view for the person: every chat, as conch chats list orders and
words them for the person (working with its step's words and for how long,
the file it is changing; needs you, idle, stopped; its folder; untrusted;
where it came from; on which computer once there are several), and what
waits for you: held messages (from, to, the first line of the words,
cleaned), requests (who asks to stop whom, and why), chats that need you.
enter opens the selected chat's detail: its reply and changed files, its
last reply's words (quoted), its last events, its messages and its waits.

It follows the home through the same file-system notification the waits
use, and redraws within a fraction of a second of a change; a clock tick
once a second keeps the "for 2m" current. It rings the terminal bell when
something new waits for you (a chat now needs you, a request, a held
message), at most once a chat a minute, as [notify] does (conch help
person).

Keys (shown in the footer):
  ↑/↓, k/j   select
  enter      open or close the selected chat's detail (esc closes it)
  p          pass the selected held message on (conch message pass)
  d          dismiss it (conch message dismiss)
  y          confirm the selected request (conch confirm)
  n          deny it (conch deny)
  i          cycle the selected chat's inbound: accept → hold → refuse
             (conch chat set --inbound; loosening it is a press)
  q          quit (ctrl-c, or a signal, too: the terminal is restored)

A key here is a person's press: conch top runs only with no chat acting and
a terminal, so a key may do what conch message pass or conch confirm may do,
and nothing more. Words a model wrote are cleaned or quoted, never shown
raw. It works in 80×24 and degrades on a narrower terminal; NO_COLOR (or
TERM=dumb) turns colour off.

--once prints one frame (--width, --height) and exits: for scripts, and
without a terminal; with --json, {"lines": ["…row…"]}.

Exit codes: 0 done, 1 failed, 2 usage, 3 refused (a chat acting, or no
terminal without --once).`

// topOptions are conch top's words.
type topOptions struct {
	once          bool
	width, height int

	IO       *render.Printer
	Home     homeRW
	Actor    state.Actor
	Now      func() time.Time // the clock (CONCH_NOW, else the time)
	UserHome string
	Color    bool      // NO_COLOR unset and a terminal that has colour
	In       io.Reader // standard input: the keys
	Out      io.Writer // standard output: the screen
}

// newTopCmd is conch top; runF, when not nil, gets the checked options
// instead of the run (for tests).
func newTopCmd(a *app, runF func(*topOptions) error) *cobra.Command {
	o := &topOptions{}
	cmd := &cobra.Command{
		Use:         "top [--once [--width W] [--height H]]",
		Short:       "A live view for the person: every chat, and what waits for you",
		Long:        topLong,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
	}
	cmd.Flags().BoolVar(&o.once, "once", false, "print one frame and exit")
	cmd.Flags().IntVar(&o.width, "width", 80, "with --once: the frame's width in columns")
	cmd.Flags().IntVar(&o.height, "height", 24, "with --once: the frame's height in rows")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if a.chat != "" {
			return &state.Error{Kind: state.ErrRefused, Msg: "conch top is the person's view: run it with no chat acting (CONCH_CHAT unset, no --chat)"}
		}
		if o.width < 1 || o.height < 1 {
			return usage("--width and --height must be 1 or more")
		}
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor, o.Now, o.UserHome = a.printer(), a.homeRW(), a.actor(), topClock(a), a.userHome()
		o.Color, o.In, o.Out = topColor(a.env.Getenv), a.env.In, a.env.Out
		return runTop(o)
	})
	return cmd
}

// runTop prints one frame, or runs the live view on the terminal.
func runTop(o *topOptions) error {
	if o.once {
		m := newTopModel()
		v, err := personView(o.Home, nil)
		if err != nil {
			return err
		}
		m.setView(v, o.Now())
		f := m.frame(nil, o.width, o.height, false, o.Now(), o.UserHome)
		return o.IO.Value(render.LinesJSON{Lines: f.Lines()}, f.String())
	}
	if o.IO.JSON {
		return usage("conch top --json prints one frame: give --once")
	}
	in, out, ok := terminals(o.In, o.Out)
	if !ok || !o.Actor.Terminal {
		return &state.Error{Kind: state.ErrRefused, Msg: "conch top needs a terminal (standard input and output); --once prints one frame without one"}
	}
	return topLive(o, in, out)
}

// terminals are the process's standard input and output when both are
// terminals.
func terminals(stdin io.Reader, stdout io.Writer) (in, out *os.File, ok bool) {
	in, iok := stdin.(*os.File)
	out, ook := stdout.(*os.File)
	if !iok || !ook || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil, nil, false
	}
	return in, out, true
}

// topClock is the clock conch top shows: CONCH_NOW's, else the time (a
// CONCH_NOW that is not a time is not top's to refuse).
func topClock(a *app) func() time.Time {
	clock, err := a.clock()
	if err != nil {
		return a.env.Now
	}
	return clock
}

func personView(h homeRW, settled state.Settled) (v *state.PersonView, err error) {
	err = h.view(func(tx *state.View) error {
		v, err = tx.Top().Person(settled)
		return err
	})
	return v, err
}

func chatDetail(h homeRW, id string) (d *state.ChatDetail, err error) {
	err = h.view(func(tx *state.View) error {
		d, err = tx.Top().Detail(id)
		return err
	})
	return d, err
}

// topColor says whether conch top may use colour: NO_COLOR unset (or
// empty) and a terminal that has it.
func topColor(getenv func(string) string) bool {
	return getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// topLive runs the view on the terminal until q, ctrl-c or a signal, and
// leaves the terminal as it found it.
func topLive(o *topOptions, in, out *os.File) error {
	saved, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return fmt.Errorf("conch top: the terminal: %v", err)
	}
	// The alternate screen, the cursor hidden; both undone on the way out,
	// whatever the way.
	io.WriteString(out, "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J")
	defer func() {
		io.WriteString(out, "\x1b[0m\x1b[?25h\x1b[?1049l")
		_ = term.Restore(int(in.Fd()), saved)
	}()

	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, topSignals...)
	defer signal.Stop(sigs)
	keys := make(chan string, 16)
	go readKeys(in, keys)
	// The records the view shows, through the store's change feed; a
	// chat's log too while its detail is open.
	var changed <-chan struct{}
	stopWatch, watching := func() {}, "-"
	defer func() { stopWatch() }()
	watchFor := func(detail string) {
		if detail == watching {
			return
		}
		stopWatch()
		ctx, cancel := context.WithCancel(context.Background())
		keys := []string{"index.json", "chats/", "tasks/", "messages/", "requests/", "waits/", "log/"}
		if detail != "" {
			keys = append(keys, "log/"+detail+"/")
		}
		changed, _ = o.Home.home.Store().Watch(ctx, keys...)
		stopWatch, watching = cancel, detail
	}

	m := newTopModel()
	settled := state.Settled{}
	var detail *state.ChatDetail
	last := ""
	var looked time.Time
	refresh := func() {
		looked = time.Now()
		now := o.Now()
		v, err := personView(o.Home, settled)
		if err != nil {
			m.said = "conch: " + err.Error()
		} else if m.setView(v, now) {
			io.WriteString(out, "\a")
		}
		detail = nil
		if m.detail != "" {
			if d, err := chatDetail(o.Home, m.detail); err == nil {
				detail = d
			} else {
				m.detail, m.said = "", "conch: "+err.Error()
			}
		}
		watchFor(m.detail)
	}
	draw := func() {
		cols, rows, err := term.GetSize(int(out.Fd()))
		if err != nil {
			cols, rows = 80, 24
		}
		f := m.frame(detail, cols, rows, o.Color, o.Now(), o.UserHome)
		screen := "\x1b[H" + strings.Join(f.Lines(), "\x1b[K\r\n") + "\x1b[K\x1b[J"
		if screen != last {
			io.WriteString(out, screen)
			last = screen
		}
	}
	refresh()
	draw()

	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	// A burst of file events (a temporary file written, then renamed) is
	// one change: looked at once, a little after the first of them.
	var settle <-chan time.Time
	for {
		select {
		case s := <-sigs:
			if s == resized {
				last = ""
				draw()
				continue
			}
			return nil
		case k, ok := <-keys:
			if !ok {
				return nil // standard input closed
			}
			press, quit := m.key(k)
			if quit {
				return nil
			}
			if press != nil {
				m.said = runTopPress(o, press)
			}
			refresh()
			draw()
		case <-changed:
			if settle == nil {
				// At most ten looks a second however busy the chats are,
				// each within 120 ms of the change that asked for it.
				settle = time.After(max(20*time.Millisecond, 100*time.Millisecond-time.Since(looked)))
			}
		case <-settle:
			settle = nil
			refresh()
			draw()
		case <-tick.C:
			// A reply's process that went away says nothing to the file
			// system, and "for 2m" moves on: look again once a second.
			refresh()
			draw()
		}
	}
}

// runTopPress carries out a key's press as the person's, as the command of
// the same name would, and says what it did.
func runTopPress(o *topOptions, p *topPress) string {
	var said string
	actor := o.Actor
	err := o.Home.update(func(tx *state.Tx) error {
		switch p.Verb {
		case "pass", "dismiss":
			do := tx.Messages().Pass
			if p.Verb == "dismiss" {
				do = tx.Messages().Dismiss
			}
			msg, err := do(actor, p.ID)
			if err == nil {
				said = render.MessageDecided(msg)
			}
			return err
		case "confirm", "deny":
			do := tx.Requests().Confirm
			if p.Verb == "deny" {
				do = tx.Requests().Deny
			}
			r, err := do(actor, p.ID)
			if err == nil {
				said = render.Decided(r)
			}
			return err
		case "inbound":
			in := p.Inbound
			c, err := tx.Chats().Set(actor, p.ID, state.ChatChange{Inbound: &in})
			if err == nil {
				said = render.InboundSet(c)
			}
			return err
		}
		return fmt.Errorf("no press %q", p.Verb)
	})
	if err != nil {
		return "conch: " + err.Error()
	}
	return strings.TrimSpace(said)
}

// readKeys reads the terminal's keys into keys, closing it at the end of
// the input. Arrows come as escape sequences (ESC [ A, or ESC O A in the
// terminal's application mode); an escape alone is esc; ctrl-c and ctrl-d
// quit (the terminal is raw: they are keys, not signals).
func readKeys(in io.Reader, keys chan<- string) {
	defer close(keys)
	buf := make([]byte, 256)
	for {
		n, err := in.Read(buf)
		for _, k := range parseKeys(buf[:n]) {
			keys <- k
		}
		if err != nil {
			return
		}
	}
}

// parseKeys splits what one read of the terminal gave into keys.
func parseKeys(b []byte) []string {
	var out []string
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == 0x1b:
			if i+2 < len(b) && (b[i+1] == '[' || b[i+1] == 'O') {
				switch b[i+2] {
				case 'A':
					out = append(out, keyUp)
				case 'B':
					out = append(out, keyDown)
				}
				i += 2
				// The rest of a longer sequence (ESC [ 1 ; 5 A) is skipped.
				for i < len(b) && (b[i] < 0x40 || b[i] > 0x7e) {
					i++
				}
				continue
			}
			out = append(out, keyEsc)
		case c == '\r' || c == '\n':
			out = append(out, keyEnter)
		case c == 0x03 || c == 0x04:
			out = append(out, keyQuit)
		case c >= 0x20 && c < 0x7f:
			out = append(out, string(c))
		}
	}
	return out
}
