package hub

import (
	"os"
	"path/filepath"
	"testing"
)

// The credentials are made once, on a first start, and read back at every
// other: the same token, the same CA; a node named by another host gets a
// certificate of the same CA for it.
func TestLoadAuth(t *testing.T) {
	dir := t.TempDir()
	auth := filepath.Join(dir, "auth")
	a, err := LoadAuth(auth, dir, []string{"127.0.0.1", "hub.lan"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"auth/ca.pem", "auth/ca-key.pem", "auth/user.nk", "auth/routes.secret", "node.pem", "node-key.pem"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", f, st, err)
		}
	}
	if st, err := os.Stat(auth); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the credentials' folder: %v %v", st, err)
	}
	b, err := LoadAuth(auth, dir, []string{"hub.lan"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Token() != b.Token() || a.Route != b.Route || !a.Node.Leaf.Equal(b.Node.Leaf) {
		t.Fatal("a second start made other credentials")
	}
	other := t.TempDir()
	c, err := LoadAuth(auth, other, []string{"build-server"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Token() != a.Token() || c.Node.Leaf.CheckSignatureFrom(a.CA) != nil || !covers(c.Node.Leaf, []string{"build-server"}) {
		t.Fatal("another node of the cluster is not of the same CA")
	}
	if covers(c.Node.Leaf, []string{"hub.lan"}) {
		t.Fatal("a node's certificate names another's host")
	}
}
