package state

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/conch-sh/conch/state/scrub"
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
		{"a start-reply message on its way in", Chat{Status: StatusIdle, Wake: &Wake{Reason: wakeMessage}}, true},
		{"woken for a wait of its own that ended", Chat{Status: StatusIdle, Wake: &Wake{Reason: wakeWait}}, true},
		{"woken for a notice", Chat{Status: StatusIdle, Wake: &Wake{Reason: wakeNotice}}, false},
		{"waiting for something of its own", Chat{Status: StatusIdle, Waiting: []string{"c_2"}}, true},
		{"a task running", Chat{Task: &TaskInfo{State: TaskRunning}}, true},
		{"a task waiting for room", Chat{Task: &TaskInfo{State: taskWaitingRoom}}, true},
		{"a task waiting for the person's OK", Chat{Task: &TaskInfo{State: taskWaitingOK}}, true},
		{"a task done", Chat{Task: &TaskInfo{State: TaskDone}}, false},
		{"a task interrupted, its reply still running", Chat{Task: &TaskInfo{State: TaskInterrupted}, Reply: running}, false},
	} {
		if got := tc.c.stillWorking(); got != tc.want {
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

// A start-reply message on its way in keeps a chat working for whoever
// waits on it; once that reply runs and ends, the wait ends.
func TestWaitOnChatWithMessageOnItsWay(t *testing.T) {
	h := testHome(t)
	person := Actor{}
	mustUpdate(t, h, func(tx *Tx) error {
		for _, title := range []string{"Release notes", "Fix the login"} {
			if _, err := tx.Chats().Create(person, NewChat{Title: title, Folder: "/tmp"}); err != nil {
				return err
			}
		}
		c2, err := tx.Chats().Get("c_2")
		if err != nil {
			return err
		}
		c2.Wake = &Wake{Reason: wakeMessage, Message: "m_1", Chain: "ch_9", At: tx.Now()}
		tx.Chats().save(c2, true)
		return nil
	})
	c1 := Actor{ID: "c_1"}
	var v *WaitView
	mustUpdate(t, h, func(tx *Tx) (err error) {
		v, err = tx.Waits().Start(c1, WaitChat, "c_2", 0)
		return err
	})
	if v.State != waitWaiting {
		t.Fatalf("wait on a chat with a message on its way in: %s, want waiting", v.State)
	}
	c2 := Actor{ID: "c_2"}
	mustUpdate(t, h, func(tx *Tx) error {
		if _, err := tx.Replies().Start(c2, ReplyStart{PID: os.Getpid()}); err != nil {
			return err
		}
		_, err := tx.Replies().End(c2, ReplyEnd{Text: "Read it, done."})
		return err
	})
	var ended []EndedWait
	if err := h.View(func(tx *View) error {
		me, err := tx.Chats().Get("c_1")
		if err != nil {
			return err
		}
		ended, err = tx.Waits().ended(me)
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
			c, err := tx.Chats().Create(Actor{}, NewChat{Title: "Chat", Folder: "/tmp"})
			if err != nil {
				return err
			}
			if _, err := tx.Replies().Start(Actor{ID: c.ID}, ReplyStart{PID: os.Getpid()}); err != nil {
				return err
			}
		}
		for _, w := range [][2]string{{"c_1", "c_2"}, {"c_2", "c_3"}, {"c_3", "c_4"}} {
			if _, err := tx.Waits().Start(Actor{ID: w[0]}, WaitChat, w[1], 0); err != nil {
				return err
			}
		}
		return nil
	})
	err := h.Update(func(tx *Tx) error {
		_, err := tx.Waits().Start(Actor{ID: "c_4"}, WaitChat, "c_1", 0)
		return err
	})
	if !errors.Is(err, ErrWaitLoop) || !errors.Is(err, ErrRefused) || !strings.HasSuffix(err.Error(), "c_4 → c_1 → c_2 → c_3 → c_4") {
		t.Fatalf("loop of four: %v", err)
	}
}

// A waits record that cannot be read fails the command that would end the
// wait, naming the file, and writes nothing.
func TestCorruptWaitsRecordFailsTheEnd(t *testing.T) {
	h := testHome(t)
	mustUpdate(t, h, func(tx *Tx) error {
		for _, title := range []string{"One", "Two"} {
			if _, err := tx.Chats().Create(Actor{}, NewChat{Title: title, Folder: "/tmp"}); err != nil {
				return err
			}
		}
		if _, err := tx.Replies().Start(Actor{ID: "c_2"}, ReplyStart{PID: os.Getpid()}); err != nil {
			return err
		}
		_, err := tx.Waits().Start(Actor{ID: "c_1"}, WaitChat, "c_2", 0)
		return err
	})
	putRaw(t, h, waitsRel("c_1"), []byte("{torn"))
	err := h.Update(func(tx *Tx) error {
		_, err := tx.Replies().End(Actor{ID: "c_2"}, ReplyEnd{Text: "done"})
		return err
	})
	var ce *CorruptError
	if !errors.As(err, &ce) || !strings.HasSuffix(ce.Path, "waits/c_1.json") {
		t.Fatalf("ending a wait in a torn record: %v", err)
	}
	if err := h.View(func(tx *View) error {
		c, err := tx.Chats().Get("c_2")
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

// twoChats makes c_1 and c_2, with c_2's reply run by the process pid.
func twoChats(t *testing.T, h *Home, pid int) {
	t.Helper()
	mustUpdate(t, h, func(tx *Tx) error {
		for _, title := range []string{"Release notes", "Fix the login"} {
			if _, err := tx.Chats().Create(Actor{}, NewChat{Title: title, Folder: "/tmp", WakeCmd: "true"}); err != nil {
				return err
			}
		}
		_, err := tx.Replies().Start(Actor{ID: "c_2"}, ReplyStart{PID: pid})
		return err
	})
}

// await runs Await in the background once the wait is registered as
// blocking, and returns what it answers once ready has been called.
func await(t *testing.T, h *Home, a Actor, target string) (answer chan *WaitView, errs chan error) {
	t.Helper()
	mustUpdate(t, h, func(tx *Tx) error {
		_, err := tx.Waits().Start(a, WaitChat, target, os.Getpid())
		return err
	})
	ready := make(chan struct{})
	answer, errs = make(chan *WaitView, 1), make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	go func() {
		v, err := h.Await(ctx, a, target, func() { close(ready) })
		answer <- v
		errs <- err
	}()
	<-ready
	return answer, errs
}

// A blocking wait is woken by the reply end, and while it blocks nobody
// else tells the chat of the ending, nor wakes it.
func TestAwaitWokenByReplyEnd(t *testing.T) {
	h := testHome(t)
	twoChats(t, h, os.Getpid())
	c1 := Actor{ID: "c_1"}
	answer, errs := await(t, h, c1, "c_2")
	// The wait ends while its blocker lives (the blocker is this process,
	// so it stays alive after Await returns): notes says nothing of it.
	mustUpdate(t, h, func(tx *Tx) error {
		_, err := tx.Replies().End(Actor{ID: "c_2"}, ReplyEnd{Text: "Fixed."})
		return err
	})
	v, err := <-answer, <-errs
	if err != nil || v == nil || v.Ending == nil || v.Ending.Text != "Fixed." {
		t.Fatalf("Await = %+v, %v", v, err)
	}
	if err := h.View(func(tx *View) error {
		me, err := tx.Chats().Get("c_1")
		if err != nil {
			return err
		}
		if me.Wake != nil {
			t.Errorf("a chat blocking on its wait was woken: %+v", me.Wake)
		}
		ended, err := tx.Waits().ended(me)
		if len(ended) != 0 {
			t.Errorf("notes would tell a wait its blocker tells: %+v", ended)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// A blocking wait notices, by its poll, a target whose reply's process went
// away with nothing written, and records that reply as not finished.
func TestAwaitNoticesAGoneProcess(t *testing.T) {
	harness := exec.Command("sleep", "60")
	if err := harness.Start(); err != nil {
		t.Skip("no sleep to stand in for a harness:", err)
	}
	h := testHome(t)
	twoChats(t, h, harness.Process.Pid)
	answer, errs := await(t, h, Actor{ID: "c_1"}, "c_2")
	_ = harness.Process.Kill()
	_ = harness.Wait()
	v, err := <-answer, <-errs
	if err != nil || v == nil || v.Ending == nil || v.Ending.How != EndedStopped {
		t.Fatalf("Await = %+v, %v", v, err)
	}
	if err := h.View(func(tx *View) error {
		c, err := tx.Chats().Get("c_2")
		if err == nil && (c.Reply != nil || c.LastReply == nil || c.LastReply.Outcome != outcomeGone) {
			t.Errorf("the gone reply was not recorded: reply %+v, last %+v", c.Reply, c.LastReply)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// A blocking wait cancelled from elsewhere returns, refused.
func TestAwaitCancelled(t *testing.T) {
	h := testHome(t)
	twoChats(t, h, os.Getpid())
	c1 := Actor{ID: "c_1"}
	answer, errs := await(t, h, c1, "c_2")
	mustUpdate(t, h, func(tx *Tx) error {
		_, err := tx.Waits().Cancel(c1, "c_2")
		return err
	})
	if v, err := <-answer, <-errs; v != nil || !errors.Is(err, ErrRefused) {
		t.Fatalf("Await after cancel = %+v, %v", v, err)
	}
}
