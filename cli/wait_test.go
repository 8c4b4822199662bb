package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/state"
)

// conch wait chat|task's words: --timeout and --detach exclude each
// other, and a timeout is above zero.
func TestWaitForOptions(t *testing.T) {
	var got *waitForOptions
	catch := func(o *waitForOptions) error { got = o; return nil }

	if err := parse(t, newWaitForCmd(testApp(), waitChat, catch), "c_2", "--timeout", "90s"); err != nil {
		t.Fatal(err)
	}
	if want := (waitForOptions{kind: state.WaitChat, id: "c_2", timeout: 90 * time.Second, timed: true}); *got != want {
		t.Fatalf("got %+v, want %+v", *got, want)
	}
	got = nil
	if err := parse(t, newWaitForCmd(testApp(), waitTask, catch), "t_1", "--detach"); err != nil {
		t.Fatal(err)
	}
	if want := (waitForOptions{kind: state.WaitTask, id: "t_1", detach: true}); *got != want {
		t.Fatalf("got %+v, want %+v", *got, want)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"c_2", "--timeout", "5m", "--detach"}, "give --timeout or --detach, not both"},
		{[]string{"c_2", "--timeout", "0s"}, "want a duration above zero"},
		{[]string{"c_2", "--timeout", "-1s"}, "want a duration above zero"},
		{[]string{}, "takes one chat id"},
	} {
		got = nil
		err := parse(t, newWaitForCmd(testApp(), waitChat, catch), c.args...)
		if !isUsage(err) || !strings.Contains(err.Error(), c.want) || got != nil {
			t.Errorf("%q: %v (ran: %v), want usage %q", c.args, err, got != nil, c.want)
		}
	}
}
