package cli

import (
	"strings"
	"testing"
)

// conch chat message's words, as its run gets them: the words from TEXT
// or a file, never neither.
func TestChatMessageOptions(t *testing.T) {
	var got *chatMessageOptions
	catch := func(o *chatMessageOptions) error { got = o; return nil }

	if err := parse(t, newChatMessageCmd(testApp(), catch), "c_2", "look at auth.go", "--start-reply", "--watch", "--key", "k1"); err != nil {
		t.Fatal(err)
	}
	if want := (chatMessageOptions{to: "c_2", text: "look at auth.go", textSet: true, key: "k1", startReply: true, watch: true}); *got != want {
		t.Fatalf("got %+v, want %+v", *got, want)
	}

	// Empty words are words: the send, not the parse, judges them.
	got = nil
	if err := parse(t, newChatMessageCmd(testApp(), catch), "c_2", ""); err != nil || !got.textSet || got.text != "" {
		t.Fatalf("empty TEXT: %+v, %v", got, err)
	}
	got = nil
	if err := parse(t, newChatMessageCmd(testApp(), catch), "c_2", "--text-file", "-"); err != nil || got.textSet || got.textFile != "-" {
		t.Fatalf("--text-file: %+v, %v", got, err)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"c_2"}, "give the words"},
		{[]string{"c_2", "a", "b"}, "takes a chat id and the words"},
		{[]string{}, "takes a chat id and the words"},
	} {
		got = nil
		err := parse(t, newChatMessageCmd(testApp(), catch), c.args...)
		if !isUsage(err) || !strings.Contains(err.Error(), c.want) || got != nil {
			t.Errorf("%q: %v (ran: %v), want usage %q", c.args, err, got != nil, c.want)
		}
	}
}
