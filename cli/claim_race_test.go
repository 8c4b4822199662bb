package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestClaimRace: sixteen chats claim files that overlap, in sixteen
// processes at once. Exactly one gets them; each of the fifteen others
// exits 3 naming the one that holds them and until when, and none of its
// own files is claimed (a claim is all or none).
func TestClaimRace(t *testing.T) {
	const n = 16
	bin := conchBin(t)
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(proj, "src"), 0o700); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("c_%d", i)
		for _, args := range [][]string{{"chat", "new", "--title", "Racer " + id, "--folder", proj}, {"reply", "start", "--person"}} {
			chat := id
			if args[0] == "chat" {
				chat = ""
			}
			if o := runConch(bin, home, chat, args...); o.code != 0 {
				t.Fatal(o)
			}
		}
	}
	cmds := make([]*exec.Cmd, n)
	outs := make([]*bytes.Buffer, n)
	errs := make([]*bytes.Buffer, n)
	for i := range cmds {
		id := fmt.Sprintf("c_%d", i+1)
		// The shared file, and one of its own: all of them, or none.
		c := exec.Command(bin, "claim", filepath.Join(proj, "src", "auth.ts"), filepath.Join(proj, "own-"+id))
		c.Env = conchEnv(home, id)
		outs[i], errs[i] = &bytes.Buffer{}, &bytes.Buffer{}
		c.Stdout, c.Stderr = outs[i], errs[i]
		cmds[i] = c
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	winner := ""
	var lost []int
	for i, c := range cmds {
		o := observed(c.Args[1:], outs[i], errs[i], c.Wait())
		switch o.code {
		case 0:
			if winner != "" {
				t.Errorf("two claims of one file won: %s and c_%d", winner, i+1)
			}
			winner = fmt.Sprintf("c_%d", i+1)
		case 3:
			lost = append(lost, i)
		default:
			t.Errorf("c_%d: %s", i+1, o)
		}
	}
	if winner == "" {
		t.Fatalf("no claim won")
	}
	for _, i := range lost {
		want := fmt.Sprintf("is claimed by “Racer %s” (chat %s) until ", winner, winner)
		if !strings.Contains(errs[i].String(), want) {
			t.Errorf("c_%d was told %q; want it to name %s and until when", i+1, errs[i].String(), winner)
		}
	}
	o := runConch(bin, home, "", "claims", "--json")
	var got struct {
		Claims []struct{ Chat, Path string }
	}
	if err := json.Unmarshal([]byte(o.out), &got); err != nil || o.code != 0 {
		t.Fatalf("claims: %v %s", err, o)
	}
	if len(got.Claims) != 2 {
		t.Fatalf("claims after the race: %+v; want the winner's two", got.Claims)
	}
	for _, c := range got.Claims {
		if c.Chat != winner {
			t.Errorf("a claim of %s (%s) survived; only %s won", c.Chat, c.Path, winner)
		}
	}
}

// TestClaimKill: claims and releases killed (kill -9) at random points of
// their lives. Every claim whose command exited 0 is there afterwards
// (until released by a release that exited 0), none is there twice, the
// record always reads, and doctor finds nothing torn.
func TestClaimKill(t *testing.T) {
	bin := conchBin(t)
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, o := range []*obs{
		runConch(bin, home, "", "chat", "new", "--title", "Claimer", "--folder", proj),
		runConch(bin, home, "c_1", "reply", "start", "--person"),
	} {
		if o.code != 0 {
			t.Fatal(o)
		}
	}
	rnd := rand.New(rand.NewSource(18))
	held := map[string]bool{}  // acknowledged and not released
	maybe := map[string]bool{} // a killed command may or may not have changed it
	life := 20 * time.Millisecond
	killed := 0
	for k := 0; k < 60; k++ {
		f := filepath.Join(proj, fmt.Sprintf("f%d", rnd.Intn(12)))
		args := []string{"claim", f}
		if rnd.Intn(3) == 0 {
			args = []string{"release", f}
		}
		o, took := runKilled(bin, home, "c_1", args, time.Duration(rnd.Int63n(int64(2*life)+1)), rnd.Intn(10) < 7)
		switch o.code {
		case 0:
			life = (life + took) / 2
			held[f] = args[0] == "claim"
			delete(maybe, f)
		case -1:
			maybe[f] = true
			killed++
		default:
			t.Fatalf("%s", o)
		}
	}
	t.Logf("%d of 60 commands killed", killed)
	o := runConch(bin, home, "", "claims", "--json")
	if o.code != 0 {
		t.Fatalf("claims after kills: %s", o)
	}
	var got struct{ Claims []struct{ Path string } }
	if err := json.Unmarshal([]byte(o.out), &got); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range got.Claims {
		if seen[c.Path] {
			t.Errorf("%s is claimed twice", c.Path)
		}
		seen[c.Path] = true
	}
	for f, h := range held {
		if maybe[f] {
			continue
		}
		if h != seen[f] {
			t.Errorf("%s: claimed %v after the kills, want %v (acknowledged)", f, seen[f], h)
		}
	}
	if o := runConch(bin, home, "", "doctor", "--json"); o.code != 0 || strings.Contains(o.out, "torn") {
		t.Errorf("doctor after kills: %s", o)
	}
}
