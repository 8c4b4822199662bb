package state

// Telling the person (issue 17): `[notify] command = ["notify-send",
// "conch"]` in config.toml runs, detached, once per event that needs the
// person: a chat now needs you, a stop waits for the person's OK, a message
// is held. At most one notice a chat a minute, across processes: the last
// notice of each chat is kept in CONCH_HOME/notify.json, written in the
// transaction that caused the event. The notice says who and what kind,
// never a message's words or a stop's reason (nothing a model wrote beyond
// a cleaned title). With no command set, nothing here reads or writes a
// file.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/conch-sh/conch/state/proc"
)

// The kinds of notice.
const (
	NoticeNeedsYou = "needs-you" // a chat now needs you
	NoticeRequest  = "request"   // a stop waits for the person's OK
	NoticeHeld     = "held"      // a message is held for the person
	// NoticeOpen: a --start-reply message waits for the person to go back
	// to the receiver's open session (conch does not type into it).
	NoticeOpen = "open"
	NoticeTest = "test" // conch notify test
)

// NotifyEvery is how often one chat may tell the person, at most.
const NotifyEvery = time.Minute

// PersonNotice is one event that needs the person, as [notify] tells it.
type PersonNotice struct {
	Kind string
	// Chat is the chat whose doing it is, the one counted once a minute:
	// the chat that needs you, the one asking to stop another, the sender
	// of a held message.
	Chat, Title string
	// Other is the chat a stop would stop, or the receiver of a held
	// message.
	Other, OtherTitle string
	ID                string // the request or the message
	Via               string // NoticeOpen: the harness whose session is open
}

const notifyRel = "notify.json"

// notifyLog is notify.json: when each chat last told the person, for the
// last minute only.
type notifyLog struct {
	Last map[string]time.Time `json:"last"`
}

// tellPerson tells the person of n once the transaction is written, unless
// no [notify] command is set or n's chat told them within the minute. It
// never fails the command: a notify.json that cannot be read is a warning.
func (ri rippleTx) tellPerson(n PersonNotice) {
	tx := ri.tx
	argv := tx.h.Config.Notify.Command
	if len(argv) == 0 || argv[0] == "" {
		return
	}
	l, err := load[notifyLog](tx, notifyRel)
	if err != nil {
		tx.warn("the person was not told (%s): %v", n.Kind, err)
		return
	}
	if l == nil || l.Last == nil {
		l = &notifyLog{Last: map[string]time.Time{}}
	}
	// The wall clock, which CONCH_NOW (the chat's to set) does not move.
	now := tx.h.Wall().UTC()
	if last, ok := l.Last[n.Chat]; ok && now.Sub(last) < NotifyEvery && !now.Before(last) {
		return
	}
	for id, t := range l.Last {
		if now.Sub(t) >= NotifyEvery {
			delete(l.Last, id)
		}
	}
	l.Last[n.Chat] = now
	tx.put(notifyRel, l, true)
	env := tx.h.noticeEnv(n)
	cmd, err := noticeCommand(argv, env, tx.h.noticeWords(n))
	if err != nil {
		tx.warn("the person was not told (%s): %v", n.Kind, err)
		return
	}
	tx.After(func() { _ = proc.Detach(cmd, env, "") })
}

func (h *Home) noticeWords(n PersonNotice) string {
	if h.Words != nil {
		return h.Words(n)
	}
	return "conch: " + n.Kind + " " + n.Chat
}

// noticeEnv is the environment a notify command runs with, fixed and the
// person's: never the environment of the chat whose doing the notice is
// (its PATH, its LD_PRELOAD, its CONCH_CHAT). The user's HOME, USER and
// LOGNAME from the system's account, the session's XDG_RUNTIME_DIR and
// bus when they are there, a minimal PATH; then [notify] env as the
// person set it in config.toml (a PATH there wins); then what the notice
// is about.
func (h *Home) noticeEnv(n PersonNotice) []string {
	env := append([]string{minimalPath}, proc.PersonEnv()...)
	for _, kv := range h.Config.Notify.Env {
		k, _, _ := strings.Cut(kv, "=")
		env = slices.DeleteFunc(env, func(e string) bool { return strings.HasPrefix(e, k+"=") })
		env = append(env, kv)
	}
	return append(env, "CONCH_NOTIFY_KIND="+n.Kind, "CONCH_NOTIFY_CHAT="+n.Chat, "CONCH_NOTIFY_ID="+n.ID)
}

// noticeCommand is the [notify] command with the sentence last, its
// program found on the PATH of env (the notice's own, never the PATH of
// the chat whose doing it is).
func noticeCommand(argv, env []string, words string) ([]string, error) {
	cmd := append(slices.Clone(argv), words)
	if strings.ContainsRune(cmd[0], filepath.Separator) {
		return cmd, nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	if p, ok := proc.LookPath(cmd[0], path); ok {
		cmd[0] = p
		return cmd, nil
	}
	return cmd, fmt.Errorf("the [notify] command %s is not on its PATH (%s): name it by its whole path, or set PATH in [notify] env", cmd[0], path)
}

// errNoNotify is conch notify test's error when no command is set.
var errNoNotify = errors.New("no [notify] command")

// NotifyTest runs the [notify] command once with a test notice, and waits
// for it (at most until ctx is done), so that a setup that does not work
// says why. It returns the command as run.
func (h *Home) NotifyTest(ctx context.Context) ([]string, error) {
	argv := h.Config.Notify.Command
	if len(argv) == 0 || argv[0] == "" {
		return nil, &Error{Kind: ErrUsage, Msg: fmt.Sprintf("%s: set one in %s, as [notify] command = [\"notify-send\", \"conch\"]", errNoNotify, h.where("config.toml"))}
	}
	n := PersonNotice{Kind: NoticeTest}
	env := h.noticeEnv(n)
	cmd, err := noticeCommand(argv, env, h.noticeWords(n))
	if err != nil {
		return append(slices.Clone(argv), h.noticeWords(n)), err
	}
	if out, err := proc.Run(ctx, cmd, env); err != nil {
		msg := strings.TrimSpace(string(out))
		if len(msg) > 200 {
			msg = msg[:200]
		}
		if msg != "" {
			msg = ": " + msg
		}
		return cmd, fmt.Errorf("the [notify] command %s failed: %v%s", cmd[0], err, msg)
	}
	return cmd, nil
}

// nowNeedsYou: c has just come to need the person.
func (ri rippleTx) nowNeedsYou(c *Chat) {
	tx := ri.tx
	tx.ripple().tellPerson(PersonNotice{Kind: NoticeNeedsYou, Chat: c.ID, Title: c.Title})
}

// requestWaits: a stop waits for the person's OK.
func (ri rippleTx) requestWaits(r *Request) {
	tx := ri.tx
	tx.ripple().tellPerson(PersonNotice{Kind: NoticeRequest, Chat: r.By, Title: r.ByTitle, Other: r.Target, OtherTitle: r.TargetTitle, ID: r.ID})
}

// messageWaitsOpen: a --start-reply message waits for the person to go
// back to its receiver's session, open in its harness (Via).
func (ri rippleTx) messageWaitsOpen(m *Message) {
	tx := ri.tx
	tx.ripple().tellPerson(PersonNotice{Kind: NoticeOpen, Chat: m.From, Title: m.FromTitle, Other: m.To, OtherTitle: m.ToTitle, ID: m.ID, Via: m.Answer.Via})
}

// messageHeld: a message is held for the person.
func (ri rippleTx) messageHeld(m *Message) {
	tx := ri.tx
	tx.ripple().tellPerson(PersonNotice{Kind: NoticeHeld, Chat: m.From, Title: m.FromTitle, Other: m.To, OtherTitle: m.ToTitle, ID: m.ID})
}
