package cli

import (
	"strings"
	"testing"

	"github.com/conch-sh/conch/state"
)

// conch reply start's words reach its run as typed (the run resolves
// the folder and the pid); a message that is no text never does.
func TestReplyStartOptions(t *testing.T) {
	var got *replyStartOptions
	catch := func(o *replyStartOptions) error { got = o; return nil }

	if err := parse(t, newReplyStartCmd(testApp(), catch), "--person", "--message", "fix the login", "--folder", "sub", "--pid", "4242"); err != nil {
		t.Fatal(err)
	}
	if want := (replyStartOptions{person: true, message: "fix the login", folder: "sub", pid: 4242}); *got != want {
		t.Fatalf("got %+v, want %+v", *got, want)
	}
	got = nil
	if err := parse(t, newReplyStartCmd(testApp(), catch)); err != nil || *got != (replyStartOptions{}) {
		t.Fatalf("no flags: %+v, %v", got, err)
	}
	got = nil
	if err := parse(t, newReplyStartCmd(testApp(), catch), "--message", "a\xffb"); !isUsage(err) || got != nil {
		t.Fatalf("a message not UTF-8: %v (ran: %v)", err, got != nil)
	}
	if err := parse(t, newReplyStartCmd(testApp(), catch), "extra"); !isUsage(err) || !strings.Contains(err.Error(), "takes no arguments") {
		t.Fatalf("an argument: %v", err)
	}
}

// conch reply end's words: finished unless told, and --text "" is text
// given (an empty finished text), not text left out.
func TestReplyEndOptions(t *testing.T) {
	var got *replyEndOptions
	catch := func(o *replyEndOptions) error { got = o; return nil }

	if err := parse(t, newReplyEndCmd(testApp(), catch)); err != nil {
		t.Fatal(err)
	}
	if want := (replyEndOptions{outcome: state.OutcomeFinished}); *got != want {
		t.Fatalf("no flags: %+v, want %+v", *got, want)
	}
	if err := parse(t, newReplyEndCmd(testApp(), catch), "--outcome", "failed", "--text", ""); err != nil {
		t.Fatal(err)
	}
	if want := (replyEndOptions{outcome: "failed", textSet: true}); *got != want {
		t.Fatalf("--text \"\": %+v, want %+v", *got, want)
	}
	if err := parse(t, newReplyEndCmd(testApp(), catch), "--text-file", "-"); err != nil || got.textSet || got.textFile != "-" {
		t.Fatalf("--text-file: %+v, %v", got, err)
	}
}
