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
