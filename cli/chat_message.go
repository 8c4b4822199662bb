package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// chatMessageOptions are conch chat message's words.
type chatMessageOptions struct {
	to                string // the receiver's id
	text              string // TEXT, when textSet
	textSet           bool
	textFile, key     string
	startReply, watch bool

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
	In    io.Reader // standard input, for words given as -
	Cwd   string
}

// newChatMessageCmd is conch chat message; runF, when not nil, gets the
// checked options instead of the send (for tests).
func newChatMessageCmd(a *app, runF func(*chatMessageOptions) error) *cobra.Command {
	o := &chatMessageOptions{}
	cmd := &cobra.Command{
		Use:   "message ID [TEXT | --text-file F] [--start-reply] [--watch] [--key K]",
		Short: "As a chat: send another of the person's chats a message",
		Long: `As a chat: send a message to another of the person's chats, or to a task this
chat started, and print its id (m_1, m_2, …). Only a chat the person is in
(not a routine's run, a task, or a chat with someone else's words in it)
may send, and not in plan mode. Any other receiver is no chat at all.

The words (at most {{MaxMessageChars}} characters, from TEXT or --text-file, - for
standard input) have secrets taken out as they are sent. A receiver that is
working reads the message at its next step; one that is not, when its next
reply starts. A message from a chat that read something from outside waits
for the next reply's start, never a step, and that outside taint goes into
the receiver with it.

--start-reply starts that reply now: an idle receiver with a wake command is
woken (one whose harness session ended, by that harness's own headless
resume: conch help integrations, WAKING AN IDLE CHAT; one still open in
the person's terminal waits for the person); a busy one's next reply starts
with it if this reply ends before a step reads it. --watch: the sender watches the receiver (the answer says
watched: true or false). --key K: the same key from the same chat is the
same send, with the same answer, however often it is retried.

A receiver that holds messages keeps it for the person (exit 0, held);
one that refuses them turns it away (exit 3, its card says refused).

Bounds, in one chain (a reply the person's own message started begins
one): {{ChainMessages}} messages, {{ChainStarted}} replies started by messages, {{ChainPair}} from one chat to
another; for any chat, {{MaxWaiting}} messages waiting at once; the same words to the
same chat once in {{RepeatMinutes}} minutes. A message past a bound is refused (exit 3),
the bound named.

Exit codes: 0 sent (or held), 2 usage or bad words, 3 refused (no such
chat, not offered, plan mode, a bound, or the receiver turns messages
away).`,
		Args: func(cmd *cobra.Command, args []string) error {
			return rangeArgs(cmd, args, 1, 2, "a chat id and the words")
		},
		Annotations: access(accessWrite),
	}
	f := cmd.Flags()
	f.StringVar(&o.textFile, "text-file", "", "read the words from a file (- for standard input)")
	f.BoolVar(&o.startReply, "start-reply", false, "start the receiver's reply now")
	f.BoolVar(&o.watch, "watch", false, "watch the receiver once sent")
	f.StringVar(&o.key, "key", "", "an idempotency key: the same key is the same send")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		o.to = args[0]
		if o.textSet = len(args) == 2; o.textSet {
			o.text = args[1]
		}
		if !o.textSet && o.textFile == "" {
			return usage("give the words: TEXT, or --text-file F")
		}
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor, o.In, o.Cwd = a.printer(), a.homeRW(), a.actor(), a.env.In, a.env.Cwd
		return runChatMessage(o)
	})
	return cmd
}

// runChatMessage sends the message and says its answer.
func runChatMessage(o *chatMessageOptions) error {
	text, err := readText(o.In, o.Cwd, o.text, o.textFile, o.textSet, "the message")
	if err != nil {
		return err
	}
	if err := checkArgs([]string{o.key}); err != nil {
		return err
	}
	in := state.SendIn{To: o.to, Text: text, StartReply: o.startReply, Watch: o.watch, Key: o.key, Fits: fitsContext}
	var m *state.Message
	err = o.Home.update(func(tx *state.Tx) (err error) {
		m, err = tx.Messages().Send(o.Actor, in)
		return err
	})
	if err != nil {
		return err
	}
	if m.Answer.State == state.MsgRefused {
		if o.IO.JSON {
			// The refusal is on its card whether or not this is written.
			if err := o.IO.WriteJSON(render.MessageView(m)); err != nil {
				warnCommitted(o.IO, err)
			}
		}
		return &state.Error{Kind: state.ErrRefused, Msg: render.Refused(m)}
	}
	return o.IO.Value(render.MessageView(m), render.SendAnswer(m))
}

// rangeArgs checks that a command has between min and max arguments.
func rangeArgs(cmd *cobra.Command, args []string, min, max int, names string) error {
	if len(args) < min || len(args) > max {
		return usage("%s takes %s (got %d arguments)", cmd.CommandPath(), names, len(args))
	}
	return nil
}

// fitsContext refuses words that, quoted, could never be shown to a chat
// through the smallest harness's context (issue 12, rule 14).
func fitsContext(words string) error {
	if n := render.QuotedSize(words); n > render.MaxQuotedMessage {
		return usage("the message is %d bytes once quoted for the receiver; at most %d bytes fit a chat's context", n, render.MaxQuotedMessage)
	}
	return nil
}
