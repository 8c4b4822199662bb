package cli

import "testing"

// conch task set's words: --result "" is a result given (an empty one);
// --state is required.
func TestTaskSetOptions(t *testing.T) {
	var got *taskSetOptions
	catch := func(o *taskSetOptions) error { got = o; return nil }

	if err := parse(t, newTaskSetCmd(testApp(), catch), "t_1", "--state", "done", "--result", ""); err != nil {
		t.Fatal(err)
	}
	if want := (taskSetOptions{id: "t_1", st: "done", resultSet: true}); *got != want {
		t.Fatalf("got %+v, want %+v", *got, want)
	}
	if err := parse(t, newTaskSetCmd(testApp(), catch), "t_1", "--state", "failed"); err != nil || got.resultSet {
		t.Fatalf("no result: %+v, %v", got, err)
	}
	got = nil
	if err := parse(t, newTaskSetCmd(testApp(), catch), "t_1"); err == nil || got != nil {
		t.Fatalf("no --state: %v (ran: %v)", err, got != nil)
	}
}

// conch status --since 0 asks for every event: given, not left out.
func TestStatusOptions(t *testing.T) {
	var got *statusOptions
	catch := func(o *statusOptions) error { got = o; return nil }
	if err := parse(t, newStatusCmd(testApp(), catch), "c_1", "--since", "0"); err != nil || *got != (statusOptions{id: "c_1", sinceSet: true}) {
		t.Fatalf("--since 0: %+v, %v", got, err)
	}
	if err := parse(t, newStatusCmd(testApp(), catch), "c_1"); err != nil || got.sinceSet {
		t.Fatalf("no --since: %+v, %v", got, err)
	}
}
