package join

import (
	"bytes"
	"encoding/pem"
	"strings"
	"testing"
)

func TestRefusal(t *testing.T) {
	for _, c := range []struct {
		link Link
		ok   bool
		says string
	}{
		{Link{URL: "nats://127.0.0.1:4222"}, true, ""},
		{Link{URL: "nats://localhost:4222"}, true, ""},
		{Link{URL: "nats://[::1]:4222"}, true, ""},
		{Link{URL: "127.0.0.1:4222"}, true, ""},
		{Link{URL: "nats://127.0.0.1:1,nats://127.0.0.1:2, nats://127.0.0.1:3"}, true, ""},
		{Link{URL: "tls://hub.lan:4222", Creds: "c", TLSCA: "ca"}, true, ""},
		{Link{URL: "tls://u:p@hub.lan:4222"}, true, ""},
		{Link{URL: "nats://hub.lan:4222", Creds: "c", TLSCA: "ca"}, false, "not encrypted"},
		{Link{URL: "hub.lan:4222", Creds: "c"}, false, "not encrypted"},
		{Link{URL: "nats://0.0.0.0:4222"}, false, "not encrypted"},
		{Link{URL: "nats://192.168.1.4:4222"}, false, "conch backend join"},
		{Link{URL: "tls://hub.lan:4222"}, false, "no credentials"},
		{Link{URL: "tls://127.0.0.1:4222,tls://hub.lan:4222"}, false, "no credentials"},
		{Link{URL: "nats://localhost.evil.example:4222"}, false, "not encrypted"},
		{Link{URL: "http://127.0.0.1:4222"}, false, "scheme"},
		{Link{URL: " , "}, false, "no server"},
	} {
		err := Refusal(c.link)
		if (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), c.says) {
			t.Errorf("Refusal(%+v) = %v, want ok %v saying %q", c.link, err, c.ok, c.says)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("Refusal(%+v) is more than one line: %q", c.link, err)
		}
	}
}

const testSeed = "SUAMK2FG4MI6UE3ACF3FK3OIQBCEIEZV7NSWFFEW63UXMRLFM2XLAXK4GY"

func TestToken(t *testing.T) {
	der := []byte{0x30, 0x82, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	seed, ca, err := ParseToken(Token([]byte(testSeed), der))
	if err != nil || string(seed) != testSeed {
		t.Fatalf("ParseToken: %q %v", seed, err)
	}
	b, _ := pem.Decode(ca)
	if b == nil || !bytes.Equal(b.Bytes, der) {
		t.Fatalf("the CA came back as %q", ca)
	}
	for _, bad := range []string{"", testSeed, "." + Token(nil, der), "SX" + testSeed[2:] + ".MIIB", testSeed + ".!!!", testSeed + ".AAAA", "SUa" + testSeed[3:] + ".MIIBAAAAAAAAAAAAAAAAAAAA"} {
		if _, _, err := ParseToken(bad); err == nil {
			t.Errorf("ParseToken(%q) took it", bad)
		}
	}
}

func FuzzParseToken(f *testing.F) {
	f.Add(Token([]byte(testSeed), []byte{0x30, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
	f.Add("SU.x")
	f.Fuzz(func(t *testing.T, tok string) {
		seed, ca, err := ParseToken(tok)
		if err != nil {
			return
		}
		if !validSeed(string(seed)) {
			t.Fatalf("seed %q taken", seed)
		}
		if b, rest := pem.Decode(ca); b == nil || len(rest) != 0 || b.Type != "CERTIFICATE" {
			t.Fatalf("the CA is not one PEM certificate: %q", ca)
		}
	})
}

func FuzzRefusal(f *testing.F) {
	f.Add("nats://127.0.0.1:4222", "")
	f.Add("tls://hub:4222,nats://[::1]:1", "c")
	f.Fuzz(func(t *testing.T, u, creds string) {
		err := Refusal(Link{URL: u, Creds: creds})
		if err != nil {
			return
		}
		// Taken: every URL is on this computer, or TLS with credentials.
		for _, raw := range Split(u) {
			p, perr := parse(raw)
			if perr != nil {
				t.Fatalf("%q taken, but %q does not parse: %v", u, raw, perr)
			}
			if !Loopback(p.Hostname()) && (p.Scheme != "tls" || creds == "" && p.User == nil) {
				t.Fatalf("%q taken for a server beyond this computer", raw)
			}
		}
	})
}
