package state

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"
	"time"
)

// TestTopRowsIsTheSortedHead: keeping the newest ListMax as rows come gives
// the head of the whole group sorted, and counts every row.
func TestTopRowsIsTheSortedHead(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for round := 0; round < 50; round++ {
		n := rnd.IntN(40)
		var all []*Summary
		top := topRows{byReply: round%2 == 1}
		for i := 0; i < n; i++ {
			s := &Summary{ID: "c_" + strconv.Itoa(i+1), LastActive: base.Add(time.Duration(rnd.IntN(10)) * time.Minute),
				ReplyStarted: base.Add(time.Duration(rnd.IntN(10)) * time.Minute)}
			all = append(all, s)
			top.add(s, StatusIdle)
		}
		sort.Slice(all, func(i, j int) bool { return newer(top.at(all[i]), top.at(all[j]), all[i].ID, all[j].ID) })
		if top.n != n {
			t.Fatalf("counted %d of %d", top.n, n)
		}
		want := min(n, ListMax)
		rows := top.rows()
		if len(rows) != want {
			t.Fatalf("kept %d rows, want %d", len(rows), want)
		}
		for i := range rows {
			if rows[i].s.ID != all[i].ID {
				t.Fatalf("round %d row %d: %s, want %s", round, i, rows[i].s.ID, all[i].ID)
			}
		}
	}
}
