package state_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
)

// twoComputers are two homes over one store, as a laptop and a build
// server over one backend (SPEC §12): the rules across computers, asked of
// the domain alone.
func twoComputers(t *testing.T) (laptop, server *state.Home) {
	t.Helper()
	shared := store.NewMem()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	open := func(name string) *state.Home {
		h, err := state.Open(state.Options{Dir: "mem", Store: shared, Now: func() time.Time { return now }, Hostname: name})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	return open("laptop"), open("build-server")
}

func update(t *testing.T, h *state.Home, fn func(tx *state.Tx) error) {
	t.Helper()
	if err := h.Update(fn); err != nil {
		t.Fatal(err)
	}
}

// goneHere is a pid that no process of this computer has.
const goneHere = 1<<22 - 7

func TestAcrossComputers(t *testing.T) {
	laptop, server := twoComputers(t)
	// One folder path on both computers: the same words, two places.
	update(t, server, func(tx *state.Tx) error {
		if _, err := tx.Chats().Create(state.Actor{}, state.NewChat{Title: "Deploy", Folder: "/src/app"}); err != nil {
			return err
		}
		_, err := tx.Replies().Start(state.Actor{ID: "c_1"}, state.ReplyStart{PID: goneHere})
		return err
	})
	update(t, laptop, func(tx *state.Tx) error {
		if _, err := tx.Chats().Create(state.Actor{}, state.NewChat{Title: "Fix", Folder: "/src/app"}); err != nil {
			return err
		}
		_, err := tx.Replies().Start(state.Actor{ID: "c_2"}, state.ReplyStart{PID: os.Getpid()})
		return err
	})

	// The laptop lists the server's chat: working (its pid means nothing
	// here), on build-server, never the same folder.
	var list *state.ChatList
	update(t, laptop, func(tx *state.Tx) (err error) { list, err = tx.Chats().List(state.Actor{ID: "c_2"}, false); return err })
	if len(list.Chats) != 1 {
		t.Fatalf("the laptop lists %d chats, want the server's one", len(list.Chats))
	}
	if o := list.Chats[0]; o.ID != "c_1" || o.State != state.StatusWorking || o.Computer != "build-server" || o.SameFolder {
		t.Fatalf("the server's chat, from the laptop: %+v", o)
	}
	// The server's own commands see that its process is gone.
	update(t, server, func(tx *state.Tx) (err error) { list, err = tx.Chats().List(state.Actor{}, false); return err })
	for _, o := range list.Chats {
		if o.ID == "c_1" && o.State == state.StatusWorking {
			t.Fatalf("the server sees its own chat working, its process gone: %+v", o)
		}
		if o.ID == "c_2" && (o.State != state.StatusWorking || o.Computer != "laptop") {
			t.Fatalf("the laptop's chat, from the server: %+v", o)
		}
	}

	// A message sent on the laptop is read once on the server; ids are
	// given once across both.
	update(t, server, func(tx *state.Tx) error {
		_, err := tx.Replies().Start(state.Actor{ID: "c_1"}, state.ReplyStart{PID: os.Getpid()})
		return err
	})
	update(t, laptop, func(tx *state.Tx) error {
		_, err := tx.Messages().Send(state.Actor{ID: "c_2"}, state.SendIn{To: "c_1", Text: "the fix is in"})
		return err
	})
	heard := func() int {
		n := 0
		update(t, server, func(tx *state.Tx) error {
			notes, err := tx.Notes().For(state.Actor{ID: "c_1"})
			if err != nil {
				return err
			}
			n = len(notes.Messages)
			return tx.Notes().Mark(state.Actor{ID: "c_1"}, notes)
		})
		return n
	}
	if n := heard(); n != 1 {
		t.Fatalf("the server heard %d messages, want 1", n)
	}
	if n := heard(); n != 0 {
		t.Fatalf("the server heard the message again (%d)", n)
	}

	// A wait on the laptop ends when the server's chat ends its reply.
	update(t, laptop, func(tx *state.Tx) error {
		_, err := tx.Waits().Start(state.Actor{ID: "c_2"}, state.WaitChat, "c_1", 0)
		return err
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ended := make(chan *state.WaitView, 1)
	ready := make(chan struct{})
	go func() {
		v, err := laptop.Await(ctx, state.Actor{ID: "c_2"}, "c_1", func() { close(ready) })
		if err != nil {
			t.Error(err)
		}
		ended <- v
	}()
	<-ready
	update(t, server, func(tx *state.Tx) error {
		_, err := tx.Replies().End(state.Actor{ID: "c_1"}, state.ReplyEnd{Text: "deployed"})
		return err
	})
	if v := <-ended; v == nil || v.Ending == nil {
		t.Fatalf("the laptop's wait: %+v", v)
	}
}

// A wake_cmd or stop_cmd is the chat's own computer's to run: from another
// computer, a --start-reply message stays due (as for a chat with none)
// and nothing is started here.
func TestNoWakeFromAnotherComputer(t *testing.T) {
	laptop, server := twoComputers(t)
	update(t, server, func(tx *state.Tx) error {
		c, err := tx.Chats().Create(state.Actor{}, state.NewChat{Title: "Deploy", Folder: "/src/app"})
		if err != nil {
			return err
		}
		wake := "touch /nonexistent/woken"
		_, err = tx.Chats().Set(state.Actor{}, c.ID, state.ChatChange{WakeCmd: &wake})
		return err
	})
	update(t, laptop, func(tx *state.Tx) error {
		if _, err := tx.Chats().Create(state.Actor{}, state.NewChat{Title: "Fix", Folder: "/src/app"}); err != nil {
			return err
		}
		_, err := tx.Messages().Send(state.Actor{ID: "c_2"}, state.SendIn{To: "c_1", Text: "deploy it", StartReply: true})
		return err
	})
	update(t, server, func(tx *state.Tx) error {
		c, err := tx.Chats().Get("c_1")
		if err != nil {
			return err
		}
		if c.Wake != nil {
			t.Errorf("the laptop woke the server's chat: %+v", c.Wake)
		}
		return nil
	})
}

// On a home shared with other computers, a chat's wake_cmd, stop_cmd and
// their environment are kept in its computer's own files, never in the
// shared record; on a local home they stay in the record, as before.
func TestCommandsKeptHere(t *testing.T) {
	shared, own := store.NewMem(), store.NewMem()
	now := func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) }
	laptop, err := state.Open(state.Options{Dir: "mem", Store: shared, Local: own, Now: now, Hostname: "laptop"})
	if err != nil {
		t.Fatal(err)
	}
	server, err := state.Open(state.Options{Dir: "mem", Store: shared, Local: store.NewMem(), Now: now, Hostname: "build-server"})
	if err != nil {
		t.Fatal(err)
	}
	alone, err := state.Open(state.Options{Dir: "mem", Store: store.NewMem(), Now: now, Hostname: "laptop"})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []*state.Home{laptop, alone} {
		update(t, h, func(tx *state.Tx) error {
			_, err := tx.Chats().Create(state.Actor{}, state.NewChat{Title: "Deploy", Folder: "/src/app", WakeCmd: "wake-it", StopCmd: "stop-it"})
			return err
		})
	}
	rec, _ := shared.Get("chats/c_1.json")
	if bytes.Contains(rec, []byte("wake-it")) || bytes.Contains(rec, []byte("stop-it")) || bytes.Contains(rec, []byte("cmd_env")) {
		t.Fatalf("the shared record holds the commands:\n%s", rec)
	}
	if kept, err := own.Get("commands/c_1.json"); err != nil || !bytes.Contains(kept, []byte("wake-it")) {
		t.Fatalf("the laptop's own files: %q %v", kept, err)
	}
	if rec, _ := alone.Store().Get("chats/c_1.json"); !bytes.Contains(rec, []byte(`"wake_cmd": "wake-it"`)) {
		t.Fatalf("the local home's record lost its wake_cmd:\n%s", rec)
	}
	for h, want := range map[*state.Home]string{laptop: "wake-it", server: "", alone: "wake-it"} {
		_ = h.View(func(v *state.View) error {
			c, err := v.Chats().Get("c_1")
			if err != nil || c.WakeCmd != want {
				t.Errorf("%s reads c_1's wake_cmd as %q (%v), want %q", h.Computer, c.WakeCmd, err, want)
			}
			return nil
		})
	}
	// Deleting the chat lets go of them.
	update(t, laptop, func(tx *state.Tx) error { _, err := tx.Chats().Delete(state.Actor{}, "c_1"); return err })
	if _, err := own.Get("commands/c_1.json"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the deleted chat's commands stay: %v", err)
	}
}
