package state_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/conch-sh/conch/state"
)

func personView(t *testing.T, h *state.Home, settled state.Settled) *state.PersonView {
	t.Helper()
	var v *state.PersonView
	if err := h.View(func(tx *state.View) (err error) { v, err = tx.Top().Person(settled); return err }); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPersonViewHeld: a held message is in the person's view until it is
// passed; a send seen half written (its message record there, its
// receiver's not yet naming it) is not taken as settled, so the view that
// looked too early shows it once the send is whole.
func TestPersonViewHeld(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	h := testHome(t, dir)
	twoChats(t, h, "", "")
	err := h.Update(func(tx *state.Tx) error {
		in := state.InboundHold
		if _, err := tx.Chats().Set(state.Actor{}, "c_2", state.ChatChange{Inbound: &in}); err != nil {
			return err
		}
		_, err := tx.Messages().Send(state.Actor{ID: "c_1"}, state.SendIn{To: "c_2", Text: "first line\nsecond"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	settled := state.Settled{}
	v := personView(t, h, settled)
	if len(v.Held) != 1 || v.Held[0].ID != "m_1" || v.Held[0].FirstLine != "first line" || v.Held[0].To != "c_2" {
		t.Fatalf("held %+v", v.Held)
	}
	if v.Inbound["c_2"] != state.InboundHold {
		t.Errorf("inbound %v", v.Inbound)
	}

	// The receiver's record as it was before the send's commit named m_1.
	rec := filepath.Join(dir, "chats", "c_2.json")
	whole, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(whole, &c); err != nil {
		t.Fatal(err)
	}
	delete(c, "cards")
	half, _ := json.Marshal(c)
	if err := os.WriteFile(rec, half, 0o600); err != nil {
		t.Fatal(err)
	}
	if v := personView(t, h, settled); len(v.Held) != 0 {
		t.Fatalf("a half-written send shows as held: %+v", v.Held)
	}
	if err := os.WriteFile(rec, whole, 0o600); err != nil {
		t.Fatal(err)
	}
	if v := personView(t, h, settled); len(v.Held) != 1 {
		t.Fatalf("the send, whole, does not show: %+v (settled %v)", v.Held, settled)
	}

	// Dismissed, it is settled: read once, never again.
	err = h.Update(func(tx *state.Tx) error {
		_, err := tx.Messages().Dismiss(state.Actor{Terminal: true}, "m_1")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if v := personView(t, h, settled); len(v.Held) != 0 || !settled["m_1"] {
		t.Fatalf("dismissed: held %+v, settled %v", v.Held, settled)
	}
}

// TestPersonViewRequests: a stop that waits for the person is in the view;
// decided, it goes, and is settled.
func TestPersonViewRequests(t *testing.T) {
	h := testHome(t, filepath.Join(t.TempDir(), "home"))
	twoChats(t, h, "", "")
	err := h.Update(func(tx *state.Tx) error {
		if _, err := tx.Replies().Start(state.Actor{ID: "c_2"}, state.ReplyStart{Person: true, PID: os.Getpid()}); err != nil {
			return err
		}
		mode := state.ModeAsk
		if _, err := tx.Chats().Set(state.Actor{}, "c_1", state.ChatChange{Mode: &mode}); err != nil {
			return err
		}
		_, err := tx.Replies().Stop(state.Actor{ID: "c_1"}, state.StopIn{Target: "c_2", Reason: "why"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	settled := state.Settled{}
	if v := personView(t, h, settled); len(v.Requests) != 1 || v.Requests[0].ID != "r_1" || settled["r_1"] {
		t.Fatalf("requests %+v, settled %v", v.Requests, settled)
	}
	if err := h.Update(func(tx *state.Tx) error {
		_, err := tx.Requests().Deny(state.Actor{Terminal: true}, "r_1")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if v := personView(t, h, settled); len(v.Requests) != 0 || !settled["r_1"] {
		t.Fatalf("denied: requests %+v, settled %v", v.Requests, settled)
	}
}
