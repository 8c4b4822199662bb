package cli

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// conch claim's words: the paths as typed (the run resolves them), and
// --for only when given, above zero.
func TestClaimOptions(t *testing.T) {
	var got *claimOptions
	catch := func(o *claimOptions) error { got = o; return nil }

	if err := parse(t, newClaimCmd(testApp(), catch), "src/auth.go", "src/*.ts", "--for", "1h", "--reason", "the login"); err != nil {
		t.Fatal(err)
	}
	want := &claimOptions{paths: []string{"src/auth.go", "src/*.ts"}, dur: time.Hour, forSet: true, reason: "the login"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	got = nil
	if err := parse(t, newClaimCmd(testApp(), catch), "docs"); err != nil || got.forSet || got.dur != 0 {
		t.Fatalf("no --for: %+v, %v", got, err)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"a.go", "--for", "0s"}, "a claim lasts from 1m to 2h"},
		{[]string{"a.go", "--reason", "\xff"}, "not valid UTF-8"},
	} {
		got = nil
		err := parse(t, newClaimCmd(testApp(), catch), c.args...)
		if !isUsage(err) || !strings.Contains(err.Error(), c.want) || got != nil {
			t.Errorf("%q: %v (ran: %v), want usage %q", c.args, err, got != nil, c.want)
		}
	}
	got = nil
	if err := parse(t, newClaimCmd(testApp(), catch)); err == nil || got != nil {
		t.Errorf("no path: %v (ran: %v)", err, got != nil)
	}
}
