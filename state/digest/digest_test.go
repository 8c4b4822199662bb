package digest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os/exec"
	"strings"
	"testing"
)

// TestSum256Vectors: the specification's examples (FIPS 180-4's, and the
// NIST ones for the lengths where the padding takes a second block).
func TestSum256Vectors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{strings.Repeat("a", 1000000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
	} {
		sum := Sum256([]byte(c.in))
		if got := hex.EncodeToString(sum[:]); got != c.want {
			t.Errorf("Sum256(%.20q…) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestSum256AsStandard: every length across the block and padding edges
// sums as crypto/sha256 sums it (the sums name files and are kept in
// records that homes already hold).
func TestSum256AsStandard(t *testing.T) {
	data := make([]byte, 300)
	for i := range data {
		data[i] = byte(i*7 + 3)
	}
	for n := 0; n <= len(data); n++ {
		if got, want := Sum256(data[:n]), sha256.Sum256(data[:n]); got != want {
			t.Fatalf("length %d: %x, want %x", n, got, want)
		}
	}
}

func FuzzSum256(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("abc"))
	f.Add(bytes.Repeat([]byte{0x80}, 55))
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Sum256(data), sha256.Sum256(data); got != want {
			t.Fatalf("Sum256(%x) = %x, want %x", data, got, want)
		}
	})
}

// TestConchLinksNoCrypto: the conch command does not link the standard
// library's crypto (its FIPS module's inits run at every start-up; the
// package comment says why). The NATS, MCP and hub commands may.
func TestConchLinksNoCrypto(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/conch-sh/conch/cmd/conch").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "crypto" || strings.HasPrefix(p, "crypto/") {
			t.Errorf("conch links %s: every process would run its inits (use state/digest)", p)
		}
	}
}

func BenchmarkSum256(b *testing.B) {
	data := []byte("claude 0198c2a4-5b1e-7c3d-9f00-1234567890ab")
	b.ReportAllocs()
	for b.Loop() {
		Sum256(data)
	}
}
