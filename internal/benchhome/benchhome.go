// Package benchhome writes homes for the benchmarks of SPEC §10 and issue
// 25 through package state, as conch's own commands would: Chats chats (a
// realistic mix: some working, some needing the person, some archived, a
// few tasks), and about Events events in their logs, made by the changes
// that record them (goal changes).
//
// The everyday home of issue 25 adds, around c_1 (which works in the
// shared folder): Peers more chats working in c_1's folder, each changing
// a file of its own, Goals goal changes on each of five of them, Claims
// live claims held by them, and Messages messages waiting for c_1.
//
// testdata/bench/fill is its command; the in-process benchmarks of cli
// use it directly.
package benchhome

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
)

// Options says what home to write.
type Options struct {
	Chats, Events                  int
	Peers, Goals, Claims, Messages int
	Out                            io.Writer // told what was written; nil: nobody
}

// Fill writes the home of o into dir (CONCH_HOME): the chats' folders lie
// beside it, in dir/../work.
func Fill(dir string, o Options) error {
	out := o.Out
	if out == nil {
		out = io.Discard
	}
	return fill(dir, o.Chats, o.Events, everyday{o.Peers, o.Goals, o.Claims, o.Messages}, out)
}

// batch is how many changes go in one transaction: few enough that no
// transaction holds much in memory, many enough that filling is quick.
const batch = 100

// quickFS writes without syncing: a home filled for a benchmark need not
// survive a power cut, and syncing each of 50,000 events takes minutes.
type quickFS struct{ store.OSFS }

func (q quickFS) WriteFile(name string, data []byte, durable bool) error {
	return q.OSFS.WriteFile(name, data, false)
}

func fill(dir string, chats, events int, ev everyday, out io.Writer) error {
	// This computer's name, as conch's own commands give it: the chats are
	// this computer's, so their places, processes and folders count.
	host, _ := os.Hostname()
	h, err := state.Open(state.Options{Dir: dir, Hostname: host, FS: quickFS{}})
	if err != nil {
		return err
	}
	work := filepath.Join(filepath.Dir(dir), "work")
	person := state.Actor{}
	// Chats: a tenth working (their harness is pid 1, which never goes
	// away), a tenth needing the person, a twentieth archived; every fifth
	// in the shared folder, the rest spread over twenty; one task a chat for
	// every tenth chat.
	for start := 0; start < chats; start += batch {
		err := h.Update(func(tx *state.Tx) error {
			for i := start; i < min(start+batch, chats); i++ {
				folder := filepath.Join(work, "shared")
				if i%5 != 0 {
					folder = filepath.Join(work, "repo"+strconv.Itoa(i%20))
				}
				c, err := tx.Chats().Create(person, state.NewChat{Title: fmt.Sprintf("Chat number %d of the bench", i+1), Folder: folder})
				if err != nil {
					return err
				}
				me := state.Actor{ID: c.ID}
				switch {
				case i%10 == 0:
					if _, err := tx.Replies().Start(me, state.ReplyStart{Person: true, PID: 1}); err != nil {
						return err
					}
					file := filepath.Join(folder, "src", "file"+strconv.Itoa(i)+".go")
					if _, err := tx.Replies().Step(me, state.StepIn{Family: "edit", Files: []string{file}, PID: 1}); err != nil {
						return err
					}
				case i%10 == 1:
					status := state.StatusNeedsYou
					if _, err := tx.Chats().Set(person, c.ID, state.ChatChange{Status: &status}); err != nil {
						return err
					}
				case i%20 == 2:
					yes := true
					if _, err := tx.Chats().Set(person, c.ID, state.ChatChange{Archived: &yes}); err != nil {
						return err
					}
				}
				if i%10 == 3 {
					if _, err := tx.Tasks().Create(me, state.NewTask{Title: "A task of chat " + c.ID}); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	// Events: goal changes, spread evenly over the chats, to make up the
	// number asked for with those the chats' making recorded.
	ids, err := chatIDs(h)
	if err != nil {
		return err
	}
	made, err := countEvents(h, ids)
	if err != nil {
		return err
	}
	perChat, extra := 0, 0
	if left := events - int(made); left > 0 && chats > 0 {
		perChat, extra = left/chats, left%chats
	}
	began := time.Now()
	changes := 0
	for n := 1; n <= chats && events > 0; n++ {
		id := "c_" + strconv.Itoa(n)
		mine := perChat
		if n <= extra {
			mine++
		}
		changes += mine
		for done := 0; done < mine; done += batch {
			err := h.Update(func(tx *state.Tx) error {
				for k := done; k < min(done+batch, mine); k++ {
					goal := fmt.Sprintf("goal %d of %s", k+1, id)
					if _, err := tx.Chats().Set(person, id, state.ChatChange{Goal: &goal}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	if err := ev.fill(h, filepath.Join(work, "shared")); err != nil {
		return err
	}
	if err := flatten(h.Store()); err != nil {
		return err
	}
	if ev != (everyday{}) {
		if ids, err = chatIDs(h); err != nil {
			return err
		}
	}
	total, err := countEvents(h, ids)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "filled %s: %d records (chats and tasks), %d events in their logs", dir, len(ids), total)
	if changes > 0 {
		fmt.Fprintf(out, " (%d goal changes in %s)", changes, time.Since(began).Round(time.Millisecond))
		if total == 0 {
			fmt.Fprint(out, "; this build records no events yet")
		}
	}
	fmt.Fprintln(out)
	return nil
}

// chatIDs are the ids of every chat and task the index sums up.
func chatIDs(h *state.Home) ([]string, error) {
	var ids []string
	err := h.View(func(tx *state.View) error {
		ix, err := tx.Chats().Index()
		for id := range ix.Chats {
			ids = append(ids, id)
		}
		return err
	})
	return ids, err
}

// countEvents is how many events the chats' logs hold: the sum of their
// state versions (none is pruned in a home just filled).
func countEvents(h *state.Home, ids []string) (int64, error) {
	var total int64
	err := h.View(func(tx *state.View) error {
		for _, id := range ids {
			v, err := tx.Log().Version(id)
			if err != nil {
				return err
			}
			total += v
		}
		return nil
	})
	return total, err
}

// everyday is what an ordinary afternoon adds around c_1 (issue 25): the
// person's other chats working in its folder, their goals moving, their
// claims, their messages.
type everyday struct{ peers, goals, claims, messages int }

func (ev everyday) fill(h *state.Home, folder string) error {
	if ev == (everyday{}) {
		return nil
	}
	person := state.Actor{}
	var peers []string
	err := h.Update(func(tx *state.Tx) error {
		for i := range ev.peers {
			c, err := tx.Chats().Create(person, state.NewChat{Title: fmt.Sprintf("Peer %d in the shared folder", i+1), Folder: folder})
			if err != nil {
				return err
			}
			me := state.Actor{ID: c.ID}
			if _, err := tx.Replies().Start(me, state.ReplyStart{Person: true, PID: 1}); err != nil {
				return err
			}
			file := filepath.Join(folder, "pkg"+strconv.Itoa(i), "peer.go")
			if _, err := tx.Replies().Step(me, state.StepIn{Family: "edit", Files: []string{file}, PID: 1}); err != nil {
				return err
			}
			peers = append(peers, c.ID)
		}
		return nil
	})
	if err != nil || len(peers) == 0 {
		return err
	}
	return h.Update(func(tx *state.Tx) error {
		for _, id := range peers[:min(5, len(peers))] {
			for k := range ev.goals {
				goal := fmt.Sprintf("step %d of the plan: make the tests in %s pass", k+1, id)
				if _, err := tx.Chats().Set(person, id, state.ChatChange{Goal: &goal}); err != nil {
					return err
				}
			}
		}
		for i := range ev.claims {
			id := peers[i%len(peers)]
			file := filepath.Join(folder, "pkg"+strconv.Itoa(i%len(peers)), "claimed"+strconv.Itoa(i)+".go")
			if _, err := tx.Claims().Take(state.Actor{ID: id}, state.ClaimIn{Patterns: []string{file}, For: 2 * time.Hour, Reason: "mine for now"}); err != nil {
				return err
			}
		}
		for i := range ev.messages {
			from := state.Actor{ID: peers[i%len(peers)]}
			text := fmt.Sprintf("I am changing pkg%d; message %d, please leave it to me", i%len(peers), i+1)
			if _, err := tx.Messages().Send(from, state.SendIn{To: "c_1", Text: text}); err != nil {
				return err
			}
		}
		return nil
	})
}

// flatten writes every chat and task whole, its live state (a step, kept
// in the record's overlay) in the record's own file: a home filled here
// then reads the same to a conch of any version, so a benchmark of two
// builds (bench/run's BASE) times both on the same records.
func flatten(st store.Store) error {
	unlock, err := st.Lock(0)
	if err != nil {
		return err
	}
	defer unlock()
	var ws []store.Write
	for _, dir := range []string{"chats", "tasks"} {
		names, err := st.List(dir)
		if err != nil {
			return err
		}
		for _, n := range names {
			key := dir + "/" + n
			data, err := st.Get(key)
			if err != nil {
				return err
			}
			ws = append(ws, store.Write{Key: key, Data: data, Class: store.Durable})
		}
	}
	_, err = st.Commit(ws)
	return err
}
