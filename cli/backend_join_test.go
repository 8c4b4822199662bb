package cli

import (
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/conch-sh/conch/state"
)

// FuzzSetBackend: whatever config it is given, setBackend either refuses
// it or gives one that reads back with the keys set and every other table
// as it was.
func FuzzSetBackend(f *testing.F) {
	f.Add("", "tls://h:4222")
	f.Add("[backend]\nurl = \"nats://127.0.0.1:4222\"\n[notify]\ncommand = [\"x\"]\n", "tls://a:1,tls://b:2")
	f.Add("backend.url = \"x\"\n", "tls://h:1")
	f.Add("[backend]\nurl = '''\nx'''\n", "tls://h:1")
	f.Add("[[backend]]\n", "q\"\\")
	f.Fuzz(func(t *testing.T, cfg, url string) {
		set := []backendKey{{"url", url}, {"creds", "/h/hub.creds"}, {"tls_ca", "/h/hub-ca.pem"}}
		out, err := setBackend([]byte(cfg), set)
		if err != nil {
			return
		}
		var got state.Config
		if err := toml.Unmarshal(out, &got); err != nil {
			t.Fatalf("setBackend gave a config that is not TOML: %v\n%s", err, out)
		}
		if got.Backend.URL != url || got.Backend.Creds != "/h/hub.creds" || got.Backend.TLSCA != "/h/hub-ca.pem" {
			t.Fatalf("the keys read back as %+v", got.Backend)
		}
		var before, after state.Config
		if err := toml.Unmarshal([]byte(cfg), &before); err == nil {
			_ = toml.Unmarshal(out, &after)
			before.Backend, after.Backend = got.Backend, got.Backend
			if !same(before, after) {
				t.Fatalf("the rest of the config changed:\n%s\n->\n%s", cfg, out)
			}
		}
	})
}

func same(a, b state.Config) bool {
	x, _ := toml.Marshal(a)
	y, _ := toml.Marshal(b)
	return string(x) == string(y)
}
