// Command fill writes a home for the benchmarks of SPEC §10 through package
// state, as conch's own commands would: -chats N chats (a realistic mix:
// some working, some needing the person, some archived, a few tasks), and
// about -events N events in their logs, made by the changes that record
// them (goal changes). It prints what it wrote.
//
//	go run ./bench/fill -chats 50 -events 50000 DIR
//	go run ./bench/fill -chats 1000 DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/conch-sh/conch/state"
)

func main() {
	chats := flag.Int("chats", 50, "how many chats")
	events := flag.Int("events", 0, "about how many events in their logs")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: fill [-chats N] [-events N] DIR")
		os.Exit(2)
	}
	if err := fill(flag.Arg(0), *chats, *events); err != nil {
		fmt.Fprintln(os.Stderr, "fill:", err)
		os.Exit(1)
	}
}

// batch is how many changes go in one transaction: few enough that no
// transaction holds much in memory, many enough that filling is quick.
const batch = 100

func fill(dir string, chats, events int) error {
	h, err := state.Open(state.Options{Dir: dir, Hostname: "bench"})
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
				c, err := tx.CreateChat(person, state.NewChat{Title: fmt.Sprintf("Chat number %d of the bench", i+1), Folder: folder})
				if err != nil {
					return err
				}
				me := state.Actor{ID: c.ID}
				switch {
				case i%10 == 0:
					if _, err := tx.StartReply(me, state.ReplyStart{Person: true, PID: 1}); err != nil {
						return err
					}
					file := filepath.Join(folder, "src", "file"+strconv.Itoa(i)+".go")
					if _, err := tx.Step(me, state.StepIn{Family: "edit", Files: []string{file}, PID: 1}); err != nil {
						return err
					}
				case i%10 == 1:
					status := state.StatusNeedsYou
					if _, err := tx.SetChat(person, c.ID, state.ChatChange{Status: &status}); err != nil {
						return err
					}
				case i%20 == 2:
					yes := true
					if _, err := tx.SetChat(person, c.ID, state.ChatChange{Archived: &yes}); err != nil {
						return err
					}
				}
				if i%10 == 3 {
					if _, err := tx.CreateTask(me, state.NewTask{Title: "A task of chat " + c.ID}); err != nil {
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
	// Events: goal changes, spread evenly over the chats.
	var ids []string
	if err := h.View(func(tx *state.Tx) error {
		ix, err := tx.ReadIndex()
		for id := range ix.Chats {
			ids = append(ids, id)
		}
		return err
	}); err != nil {
		return err
	}
	perChat := 0
	if len(ids) > 0 {
		perChat = events / chats
	}
	began := time.Now()
	for n := 1; n <= chats && perChat > 0; n++ {
		id := "c_" + strconv.Itoa(n)
		for done := 0; done < perChat; done += batch {
			err := h.Update(func(tx *state.Tx) error {
				for k := done; k < min(done+batch, perChat); k++ {
					goal := fmt.Sprintf("goal %d of %s", k+1, id)
					if _, err := tx.SetChat(person, id, state.ChatChange{Goal: &goal}); err != nil {
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
	var total int64
	if err := h.View(func(tx *state.Tx) error {
		for _, id := range ids {
			v, err := tx.StateVersion(id)
			if err != nil {
				return err
			}
			total += v
		}
		return nil
	}); err != nil {
		return err
	}
	fmt.Printf("filled %s: %d records (chats and tasks), %d events in their logs", dir, len(ids), total)
	if perChat > 0 {
		fmt.Printf(" (%d goal changes in %s)", perChat*chats, time.Since(began).Round(time.Millisecond))
		if total == 0 {
			fmt.Print("; this build records no events yet")
		}
	}
	fmt.Println()
	return nil
}
