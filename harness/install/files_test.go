package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func testRun(t *testing.T, remove bool) *Run {
	t.Helper()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	return &Run{Env: Env{Now: func() time.Time { return now }}, Options: Options{Remove: remove, Conch: "conch"}}
}

// A file conch owns is written once, is the same again, and --remove
// takes it away; a person's file of that name is never touched.
func TestOwnFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plugins", "conch.js")
	const mark = "// conch: written by conch install; conch install --remove takes it out"
	own := Own{Data: []byte(mark + "\nrun(\"conch\")\n"), Mark: mark, Events: []string{"plugin"}}

	res, err := testRun(t, false).OwnFile(path, own)
	if err != nil || !res.Changed || res.Backup != "" || res.Events[0] != "plugin" {
		t.Fatalf("put in: %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(own.Data) {
		t.Fatalf("the file holds %q", got)
	}
	if res, err := testRun(t, false).OwnFile(path, own); err != nil || res.Changed {
		t.Fatalf("again: %+v, %v", res, err)
	}

	// A file of conch's that changed since is replaced, and kept beside it;
	// one Written knows for conch's as it wrote it is replaced, no backup.
	os.WriteFile(path, []byte(mark+"\nold()\n"), 0o600)
	res, err = testRun(t, false).OwnFile(path, own)
	if err != nil || !res.Changed || !strings.HasSuffix(res.Backup, ".bak-20261129T120000Z") {
		t.Fatalf("an older one: %+v, %v", res, err)
	}
	os.WriteFile(path, []byte(mark+"\nrun(\"/opt/conch\")\n"), 0o600)
	other := own
	other.Written = func(old []byte) bool { return strings.Contains(string(old), "run(") }
	if res, err := testRun(t, false).OwnFile(path, other); err != nil || !res.Changed || res.Backup != "" {
		t.Fatalf("another --conch: %+v, %v", res, err)
	}

	res, err = testRun(t, true).OwnFile(path, own)
	if _, serr := os.Stat(path); err != nil || !res.Changed || res.Backup != "" || serr == nil {
		t.Fatalf("taken out: %+v, %v, %v", res, err, serr)
	}
	if res, err := testRun(t, true).OwnFile(path, own); err != nil || res.Changed {
		t.Fatalf("taken out again: %+v, %v", res, err)
	}

	// A person's own file by that name (the mark elsewhere than its first
	// line is not conch's): an install refuses it, a removal leaves it and
	// says so; it stays as it is.
	mine := "mine()\n" + mark + "\n"
	os.WriteFile(path, []byte(mine), 0o600)
	if _, err := testRun(t, false).OwnFile(path, own); err == nil || !strings.Contains(err.Error(), "is not conch's") {
		t.Errorf("install over a person's file: %v", err)
	}
	if res, err := testRun(t, true).OwnFile(path, own); err != nil || res.Changed || len(res.Notes) != 1 {
		t.Errorf("remove a person's file: %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(path); string(got) != mine {
		t.Fatalf("the person's file became %q", got)
	}
	if _, err := testRun(t, false).OwnFile(path, Own{Data: []byte("no mark\n"), Mark: mark}); err == nil {
		t.Error("a file without its mark was written")
	}
}

// A backup takes a name of its own when the first is taken.
func TestBackupNames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	r := testRun(t, false)
	a, err := r.backup(path, []byte("a"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.backup(path, []byte("b"))
	if err != nil || b != a+"-2" {
		t.Fatalf("second backup %q (%v), first %q", b, err, a)
	}
}
