package state

import (
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/conch-sh/conch/scrub"
)

func TestStillWorking(t *testing.T) {
	me := os.Getpid()
	running := &Reply{ID: "c_1.1", PID: me}
	gone := &Reply{ID: "c_1.1", PID: 1 << 30}
	for _, tc := range []struct {
		name string
		c    Chat
		want bool
	}{
		{"a reply running", Chat{Reply: running}, true},
		{"a reply whose process is gone", Chat{Reply: gone}, false},
		{"idle", Chat{Status: StatusIdle}, false},
		{"needs you", Chat{Status: StatusNeedsYou}, false},
		{"stopped", Chat{Status: StatusStopped}, false},
		{"stopped, set to carry on", Chat{Status: StatusStopped, Recovery: true}, true},
		{"a start-reply message on its way in", Chat{Status: StatusIdle, Wake: &Wake{Reason: WakeMessage}}, true},
		{"woken for a wait of its own that ended", Chat{Status: StatusIdle, Wake: &Wake{Reason: WakeWait}}, true},
		{"woken for a notice", Chat{Status: StatusIdle, Wake: &Wake{Reason: WakeNotice}}, false},
		{"waiting for something of its own", Chat{Status: StatusIdle, Waiting: []string{"c_2"}}, true},
		{"a task running", Chat{Task: &TaskInfo{State: TaskRunning}}, true},
		{"a task waiting for room", Chat{Task: &TaskInfo{State: TaskWaitingRoom}}, true},
		{"a task waiting for the person's OK", Chat{Task: &TaskInfo{State: TaskWaitingOK}}, true},
		{"a task done", Chat{Task: &TaskInfo{State: TaskDone}}, false},
		{"a task interrupted, its reply still running", Chat{Task: &TaskInfo{State: TaskInterrupted}, Reply: running}, false},
	} {
		if got := tc.c.StillWorking(); got != tc.want {
			t.Errorf("%s: StillWorking = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTail(t *testing.T) {
	if got := tail("abc", 5); got != "abc" {
		t.Errorf("tail short = %q", got)
	}
	s := strings.Repeat("é", 900) + "xyz"
	got := tail(s, ReplyTail)
	if n := utf8.RuneCountInString(got); n != ReplyTail || !strings.HasSuffix(got, "xyz") || !utf8.ValidString(got) {
		t.Errorf("tail cut %d characters, want %d, valid, ending xyz", n, ReplyTail)
	}
}

func TestTakeOutValues(t *testing.T) {
	got := takeOutValues("tok=abcd1234 and abcd12345 and ab", []string{"abcd1234", "abcd12345", "ab", " padded-value "})
	want := "tok=" + scrub.Removed + " and " + scrub.Removed + " and ab"
	if got != want {
		t.Errorf("takeOutValues = %q, want %q", got, want)
	}
	if got := takeOutValues("a padded-value.", []string{" padded-value "}); got != "a "+scrub.Removed+"." {
		t.Errorf("trimmed value left in: %q", got)
	}
}

// testHome is a home in a temporary folder, its clock pinned.
func testHome(t *testing.T) *Home {
	t.Helper()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h, err := Open(Options{Dir: t.TempDir(), Now: func() time.Time { return now }, Hostname: "test", Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func mustUpdate(t *testing.T, h *Home, fn func(tx *Tx) error) {
	t.Helper()
	if err := h.Update(fn); err != nil {
		t.Fatal(err)
	}
}

// A start-reply message on its way in keeps a chat working for whoever
// waits on it; once that reply runs and ends, the wait ends.
func TestWaitOnChatWithMessageOnItsWay(t *testing.T) {
	h := testHome(t)
	person := Actor{}
	mustUpdate(t, h, func(tx *Tx) error {
		for _, title := range []string{"Release notes", "Fix the login"} {
			if _, err := tx.CreateChat(person, NewChat{Title: title, Folder: "/tmp"}); err != nil {
				return err
			}
		}
		c2, err := tx.Chat("c_2")
		if err != nil {
			return err
		}
		c2.Wake = &Wake{Reason: WakeMessage, Message: "m_1", Chain: "ch_9", At: tx.Now()}
		tx.saveChat(c2, true)
		return nil
	})
	c1 := Actor{ID: "c_1"}
	var v *WaitView
	mustUpdate(t, h, func(tx *Tx) (err error) {
		v, err = tx.StartWait(c1, WaitChat, "c_2", 0)
		return err
	})
	if v.State != WaitWaiting {
		t.Fatalf("wait on a chat with a message on its way in: %s, want waiting", v.State)
	}
	c2 := Actor{ID: "c_2"}
	mustUpdate(t, h, func(tx *Tx) error {
		if _, err := tx.StartReply(c2, ReplyStart{PID: os.Getpid()}); err != nil {
			return err
		}
		_, err := tx.EndReply(c2, ReplyEnd{Text: "Read it, done."})
		return err
	})
	var ended []EndedWait
	if err := h.View(func(tx *Tx) error {
		me, err := tx.Chat("c_1")
		if err != nil {
			return err
		}
		ended, err = tx.endedWaits(me)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(ended) != 1 || ended[0].How != EndedFinished || ended[0].Text != "Read it, done." {
		t.Fatalf("ended waits = %+v", ended)
	}
}

// A loop of four is refused as well as one of three, naming every chat.
func TestWaitLoopOfFour(t *testing.T) {
	h := testHome(t)
	mustUpdate(t, h, func(tx *Tx) error {
		for i := 1; i <= 4; i++ {
			c, err := tx.CreateChat(Actor{}, NewChat{Title: "Chat", Folder: "/tmp"})
			if err != nil {
				return err
			}
			if _, err := tx.StartReply(Actor{ID: c.ID}, ReplyStart{PID: os.Getpid()}); err != nil {
				return err
			}
		}
		for _, w := range [][2]string{{"c_1", "c_2"}, {"c_2", "c_3"}, {"c_3", "c_4"}} {
			if _, err := tx.StartWait(Actor{ID: w[0]}, WaitChat, w[1], 0); err != nil {
				return err
			}
		}
		return nil
	})
	err := h.Update(func(tx *Tx) error {
		_, err := tx.StartWait(Actor{ID: "c_4"}, WaitChat, "c_1", 0)
		return err
	})
	if err == nil || !strings.HasSuffix(err.Error(), "c_4 → c_1 → c_2 → c_3 → c_4") {
		t.Fatalf("loop of four: %v", err)
	}
}

// A waits record that cannot be read fails the command that would end the
// wait, naming the file, and writes nothing.
func TestCorruptWaitsRecordFailsTheEnd(t *testing.T) {
	h := testHome(t)
	mustUpdate(t, h, func(tx *Tx) error {
		for _, title := range []string{"One", "Two"} {
			if _, err := tx.CreateChat(Actor{}, NewChat{Title: title, Folder: "/tmp"}); err != nil {
				return err
			}
		}
		if _, err := tx.StartReply(Actor{ID: "c_2"}, ReplyStart{PID: os.Getpid()}); err != nil {
			return err
		}
		_, err := tx.StartWait(Actor{ID: "c_1"}, WaitChat, "c_2", 0)
		return err
	})
	if err := os.WriteFile(h.path(waitsRel("c_1")), []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := h.Update(func(tx *Tx) error {
		_, err := tx.EndReply(Actor{ID: "c_2"}, ReplyEnd{Text: "done"})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "waits/c_1.json") {
		t.Fatalf("ending a wait in a torn record: %v", err)
	}
	if err := h.View(func(tx *Tx) error {
		c, err := tx.Chat("c_2")
		if err != nil {
			return err
		}
		if c.Reply == nil {
			t.Error("the reply end was written although the wait could not be ended")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
