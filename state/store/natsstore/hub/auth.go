package hub

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nkeys"

	"github.com/conch-sh/conch/state/store/natsstore/join"
)

// Auth is a hub's credentials, kept in one folder (0700, each file 0600):
// the CA that signs each node's certificate (ca.pem, ca-key.pem), the
// nkey of the user every computer connects as (user.nk: its seed, which
// the join token carries) and the secret of the routes between the nodes
// of a cluster (routes.secret). The nodes of one cluster share the folder
// (a copy of it); each node makes its own certificate (node.pem,
// node-key.pem) for its own names.
type Auth struct {
	Dir     string
	CA      *x509.Certificate
	caKey   *ecdsa.PrivateKey
	seed    []byte
	UserPub string
	Route   string // the routes' password
	Node    tls.Certificate
}

// certLife is how long a certificate the hub makes is good for.
const certLife = 10 * 365 * 24 * time.Hour

// LoadAuth reads the credentials in dir, making what is not there (on a
// first start: all of it), and the node's certificate in nodeDir for
// hosts (made once; a name it lacks is added by making it again).
func LoadAuth(dir, nodeDir string, hosts []string) (*Auth, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	a := &Auth{Dir: dir}
	var err error
	if a.CA, a.caKey, err = loadOrMakeCA(dir); err != nil {
		return nil, err
	}
	if a.seed, err = loadOrMake(filepath.Join(dir, "user.nk"), func() ([]byte, error) {
		kp, err := nkeys.CreateUser()
		if err != nil {
			return nil, err
		}
		return kp.Seed()
	}); err != nil {
		return nil, err
	}
	kp, err := nkeys.FromSeed(a.seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "user.nk"), err)
	}
	if a.UserPub, err = kp.PublicKey(); err != nil {
		return nil, err
	}
	route, err := loadOrMake(filepath.Join(dir, "routes.secret"), func() ([]byte, error) {
		b := make([]byte, 24)
		_, err := rand.Read(b)
		return []byte(hex.EncodeToString(b)), err
	})
	if err != nil {
		return nil, err
	}
	a.Route = strings.TrimSpace(string(route))
	if a.Node, err = a.loadOrMakeNode(nodeDir, hosts); err != nil {
		return nil, err
	}
	return a, nil
}

// Token is the join token of this hub (package join).
func (a *Auth) Token() string { return join.Token(a.seed, a.CA.Raw) }

// loadOrMake reads the file at p, or makes it (0600) with mk.
func loadOrMake(p string, mk func() ([]byte, error)) ([]byte, error) {
	data, err := os.ReadFile(p)
	if err == nil {
		return data, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if data, err = mk(); err != nil {
		return nil, err
	}
	return data, writeSecret(p, data)
}

// writeSecret writes a file only its owner reads, whole or not at all.
func writeSecret(p string, data []byte) error {
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

func loadOrMakeCA(dir string) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	certPath, keyPath := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "ca-key.pem")
	if _, err := os.Stat(certPath); errors.Is(err, fs.ErrNotExist) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, nil, err
		}
		tmpl := &x509.Certificate{
			SerialNumber:          serial(),
			Subject:               pkix.Name{CommonName: "conch hub CA"},
			NotBefore:             time.Now().Add(-time.Hour),
			NotAfter:              time.Now().Add(certLife),
			IsCA:                  true,
			BasicConstraintsValid: true,
			MaxPathLenZero:        true,
			KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			return nil, nil, err
		}
		if err := writeKey(keyPath, key); err != nil {
			return nil, nil, err
		}
		if err := writeSecret(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})); err != nil {
			return nil, nil, err
		}
	}
	pair, err := tls.LoadX509KeyPair(certPath, keyPath)
	if err != nil {
		return nil, nil, fmt.Errorf("the hub's CA in %s: %v", dir, err)
	}
	key, ok := pair.PrivateKey.(*ecdsa.PrivateKey)
	if !ok {
		return nil, nil, fmt.Errorf("the hub's CA key %s is not an ECDSA key", keyPath)
	}
	return pair.Leaf, key, nil
}

func writeKey(p string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return writeSecret(p, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}))
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n
}

// loadOrMakeNode is the node's certificate, signed by the CA, for hosts
// (names or addresses), as a server to computers and as both ends of a
// route.
func (a *Auth) loadOrMakeNode(dir string, hosts []string) (tls.Certificate, error) {
	certPath, keyPath := filepath.Join(dir, "node.pem"), filepath.Join(dir, "node-key.pem")
	if pair, err := tls.LoadX509KeyPair(certPath, keyPath); err == nil && covers(pair.Leaf, hosts) && pair.Leaf.CheckSignatureFrom(a.CA) == nil {
		return pair, nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "conch hub"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(certLife),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.CA, &key.PublicKey, a.caKey)
	if err != nil {
		return tls.Certificate{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return tls.Certificate{}, err
	}
	if err := writeKey(keyPath, key); err != nil {
		return tls.Certificate{}, err
	}
	if err := writeSecret(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})); err != nil {
		return tls.Certificate{}, err
	}
	return tls.LoadX509KeyPair(certPath, keyPath)
}

// covers says whether the certificate names every host.
func covers(c *x509.Certificate, hosts []string) bool {
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			if !slices.ContainsFunc(c.IPAddresses, ip.Equal) {
				return false
			}
		} else if !slices.Contains(c.DNSNames, h) {
			return false
		}
	}
	return true
}

// pool is a pool of the CA alone.
func (a *Auth) pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(a.CA)
	return p
}

// serverTLS is the TLS of the client port: the node's certificate.
func (a *Auth) serverTLS() *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{a.Node}, MinVersion: tls.VersionTLS12}
}

// routeTLS is the TLS of the routes: both ends show a certificate of the
// cluster's CA.
func (a *Auth) routeTLS() *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{a.Node}, MinVersion: tls.VersionTLS12,
		RootCAs: a.pool(), ClientCAs: a.pool(), ClientAuth: tls.RequireAndVerifyClientCert,
	}
}

// Hosts are the names a node's certificate carries for a listen host:
// the names given, and for an address of every interface (0.0.0.0, ::
// or empty) this computer's name and addresses too; always localhost.
func Hosts(listen string, names []string) []string {
	hosts := append([]string{}, names...)
	add := func(h string) {
		if h != "" && !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	add("localhost")
	add("127.0.0.1")
	add("::1")
	if ip := net.ParseIP(listen); listen == "" || ip != nil && ip.IsUnspecified() {
		if n, err := os.Hostname(); err == nil {
			add(n)
		}
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, ad := range addrs {
				if ipn, ok := ad.(*net.IPNet); ok && !ipn.IP.IsLinkLocalUnicast() {
					add(ipn.IP.String())
				}
			}
		}
	} else {
		add(listen)
	}
	return hosts
}
