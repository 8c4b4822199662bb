package cli

import (
	"strings"
	"testing"
)

// conch chat set's words: the flags given, =false included, and the
// acting chat when no id is named; nothing given is nothing to change.
func TestChatSetOptions(t *testing.T) {
	var got *chatSetOptions
	catch := func(o *chatSetOptions) error { got = o; return nil }

	if err := parse(t, newChatSetCmd(testApp(), catch), "c_3", "--archived=false", "--goal", "", "--status", "idle"); err != nil {
		t.Fatal(err)
	}
	if got.id != "c_3" || len(got.given) != 3 || !got.given["archived"] || got.archived || !got.given["goal"] || got.goal != "" || got.status != "idle" {
		t.Fatalf("got %+v", got)
	}

	a := testApp()
	a.chat = "c_9"
	if err := parse(t, newChatSetCmd(a, catch), "--goal-file", "-"); err != nil || got.id != "c_9" || !got.given["goal-file"] || got.given["goal"] {
		t.Fatalf("the acting chat: %+v, %v", got, err)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"c_3"}, "nothing to change"},
		{[]string{"--title", "x"}, "name a chat"},
	} {
		got = nil
		err := parse(t, newChatSetCmd(testApp(), catch), c.args...)
		if !isUsage(err) || !strings.Contains(err.Error(), c.want) || got != nil {
			t.Errorf("%q: %v (ran: %v), want usage %q", c.args, err, got != nil, c.want)
		}
	}
}

// conch chat stop needs a reason, as words or a file.
func TestChatStopOptions(t *testing.T) {
	var got *chatStopOptions
	catch := func(o *chatStopOptions) error { got = o; return nil }

	if err := parse(t, newChatStopCmd(testApp(), catch), "c_2", "--reason", "", "--key", "k"); err != nil {
		t.Fatal(err)
	}
	if want := (chatStopOptions{id: "c_2", key: "k", reasonSet: true}); *got != want {
		t.Fatalf("got %+v, want %+v", *got, want)
	}
	got = nil
	if err := parse(t, newChatStopCmd(testApp(), catch), "c_2"); !isUsage(err) || !strings.Contains(err.Error(), "give a reason") || got != nil {
		t.Fatalf("no reason: %v (ran: %v)", err, got != nil)
	}
}
