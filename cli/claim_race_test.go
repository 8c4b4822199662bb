package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
