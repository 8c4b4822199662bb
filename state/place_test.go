package state

import (
	"testing"
)

func TestSamePlace(t *testing.T) {
	wt := "/home/u/.conch/worktrees"
	cases := []struct {
		name               string
		compA, a, compB, b string
		want               bool
	}{
		{"same folder", "laptop", "/src/app", "laptop", "/src/app", true},
		{"inside", "laptop", "/src/app/sub", "laptop", "/src/app", true},
		{"outside", "laptop", "/src/app", "laptop", "/src/app/sub", true},
		{"sibling with common prefix", "laptop", "/src/app", "laptop", "/src/apple", false},
		{"other computer", "laptop", "/src/app", "server", "/src/app", false},
		{"worktree same", "l", wt + "/t_1", "l", wt + "/t_1", true},
		{"worktree inside", "l", wt + "/t_1/sub", "l", wt + "/t_1", false},
		{"worktree and home", "l", wt + "/t_1", "l", "/home/u", false},
		{"empty", "l", "", "l", "/src", false},
	}
	for _, c := range cases {
		if got := samePlace(c.compA, c.a, c.compB, c.b, wt); got != c.want {
			t.Errorf("%s: samePlace = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestRelTo(t *testing.T) {
	if got := relTo("/src/app/a/b.go", "/src/app"); got != "a/b.go" {
		t.Errorf("relTo inside = %s", got)
	}
	if got := relTo("/src/other/b.go", "/src/app"); got != "/src/other/b.go" {
		t.Errorf("relTo outside = %s", got)
	}
}
