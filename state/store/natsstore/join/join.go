// Package join is what joining a computer to a hub takes, with nothing of
// NATS in it (plain conch links it): the token conch-hub prints and conch
// backend join reads, and the rule of which backend URLs need
// credentials and TLS. It must never dial anything.
package join

import (
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// A token is a user's NATS nkey seed and the hub's CA certificate (DER),
// "SEED.CA" with the CA in unpadded URL base64: one word on a command
// line, which a person copies from the hub to each computer.

// seedLen is the length of an nkey seed (base32 of its prefix, key and
// checksum).
const seedLen = 58

// maxCA bounds the CA certificate a token carries.
const maxCA = 16 << 10

// Token writes a token.
func Token(seed []byte, caDER []byte) string {
	return string(seed) + "." + base64.RawURLEncoding.EncodeToString(caDER)
}

// ErrToken is a token that is not one conch-hub printed.
var ErrToken = errors.New("not a token conch-hub printed (a user's seed, a dot and its CA)")

// ParseToken reads a token: the seed, and the CA as PEM.
func ParseToken(tok string) (seed []byte, caPEM []byte, err error) {
	s, ca, ok := strings.Cut(strings.TrimSpace(tok), ".")
	if !ok || !validSeed(s) || ca == "" || len(ca) > maxCA*4/3+4 {
		return nil, nil, ErrToken
	}
	der, err := base64.RawURLEncoding.DecodeString(ca)
	if err != nil || len(der) < 16 || der[0] != 0x30 {
		return nil, nil, ErrToken // a certificate is a DER SEQUENCE
	}
	return []byte(s), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}

// validSeed says whether s has the shape of a user's nkey seed: "SU" and
// base32 (A-Z, 2-7). Its checksum is the NATS client's to check.
func validSeed(s string) bool {
	if len(s) != seedLen || !strings.HasPrefix(s, "SU") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// Link is what config.toml's [backend] gives the link to a server.
type Link struct {
	URL   string // one URL, or several separated by commas (a cluster)
	Creds string // a credentials file
	TLSCA string // the server's CA
}

// Refusal says why conch does not reach the backend of l, or nil: a server
// beyond this computer (not loopback) is reached only over TLS (tls://)
// and with credentials; a server on this computer as the person likes.
// It is a function of the words alone: it resolves no name and dials
// nothing.
func Refusal(l Link) error {
	urls := Split(l.URL)
	if len(urls) == 0 {
		return fmt.Errorf("backend url %q names no server", l.URL)
	}
	for _, raw := range urls {
		u, err := parse(raw)
		if err != nil {
			return fmt.Errorf("backend url %q: %v", raw, err)
		}
		if Loopback(u.Hostname()) {
			continue
		}
		switch {
		case u.Scheme != "tls":
			return fmt.Errorf("backend %s is beyond this computer and not encrypted: reach it as tls:// with credentials, by the `conch backend join` line its conch-hub printed", raw)
		case l.Creds == "" && u.User == nil:
			return fmt.Errorf("backend %s is beyond this computer and [backend] names no credentials: join it with the `conch backend join` line its conch-hub printed", raw)
		}
	}
	return nil
}

// Split is the URLs of a [backend] url: separated by commas, blanks
// around them dropped.
func Split(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parse reads one server URL as the NATS client does: a bare host:port is
// nats://.
func parse(raw string) (*url.URL, error) {
	if !strings.Contains(raw, "://") {
		raw = "nats://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	switch u.Scheme {
	case "nats", "tls":
	default:
		return nil, fmt.Errorf("the scheme %q is neither nats:// nor tls://", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, errors.New("no host")
	}
	return u, nil
}

// Loopback says whether host is this computer by its words: localhost, or
// an address in 127.0.0.0/8 or ::1. Any other name may resolve anywhere.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
