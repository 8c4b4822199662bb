package place

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPlaceOfFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "Real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if Of(link) != Of(real) {
		t.Errorf("Of(%s) = %s, want %s", link, Of(link), Of(real))
	}
}

// TestCaseInsensitiveAsksTheDisk: the answer comes from the file system, not
// the operating system's name. On a case-sensitive disk a folder named
// "Real" and one named "REAL" are two folders.
func TestCaseInsensitiveAsksTheDisk(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "Real")
	if err := os.Mkdir(a, 0o700); err != nil {
		t.Fatal(err)
	}
	err := os.Mkdir(filepath.Join(dir, "rEAL"), 0o700)
	sensitive := err == nil
	if got := caseInsensitive(a); got == sensitive {
		t.Errorf("caseInsensitive = %v, but the disk is case-sensitive = %v", got, sensitive)
	}
	if sensitive && Of(a) != a {
		t.Errorf("on a case-sensitive disk placeOf keeps case: got %s", Of(a))
	}
}

// TestPathFollowsLinksToFilesNotYetThere: a file about to be written
// through a linked folder is the file in the folder the link names.
func TestPathFollowsLinksToFilesNotYetThere(t *testing.T) {
	dir := Of(t.TempDir())
	src := filepath.Join(dir, "src")
	if err := os.Mkdir(src, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(src, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		filepath.Join(dir, "link", "auth.ts"):           filepath.Join(src, "auth.ts"),
		filepath.Join(dir, "link", "new", "deep.ts"):    filepath.Join(src, "new", "deep.ts"),
		filepath.Join(dir, "link", "..", "src", "a.ts"): filepath.Join(src, "a.ts"),
		filepath.Join(dir, "src"):                       src,
	} {
		if got := Path(in); got != want {
			t.Errorf("Path(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestTreeKnowsWorktrees: a folder inside a checkout is in its work tree;
// a worktree (a .git file) is a tree of its own, of the same repository.
func TestTreeKnowsWorktrees(t *testing.T) {
	dir := Of(t.TempDir())
	repo := filepath.Join(dir, "repo")
	wt := filepath.Join(dir, "wt")
	for _, d := range []string{filepath.Join(repo, ".git", "worktrees", "wt"), filepath.Join(repo, "fe"), wt} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(repo, ".git", "worktrees", "wt")+"\n")
	write(filepath.Join(repo, ".git", "worktrees", "wt", "commondir"), "../..\n")
	if tree, r := Tree(filepath.Join(repo, "fe")); tree != repo || r != filepath.Join(repo, ".git") {
		t.Errorf("Tree(repo/fe) = %s, %s", tree, r)
	}
	if tree, r := Tree(wt); tree != wt || r != filepath.Join(repo, ".git") {
		t.Errorf("Tree(wt) = %s, %s; want %s, %s", tree, r, wt, filepath.Join(repo, ".git"))
	}
	if tree, r := Tree(dir); tree != "" || r != "" {
		t.Errorf("Tree(outside) = %q, %q", tree, r)
	}
}
