package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store/natsstore/join"
)

// A verb's run is a plain function of its options (cli/deps.go): these
// call it with fake streams and a home of their own, no app and no cobra.

// printerTo is a printer on buffers.
func printerTo(json bool) (*render.Printer, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &render.Printer{Out: &out, Err: &errOut, JSON: json}, &out, &errOut
}

// testHome opens a fresh home in a temporary folder, through the wiring a
// run of conch uses, and hands it out as a verb's options take it.
func testHome(t *testing.T, p *render.Printer, committed *bool) homeRW {
	t.Helper()
	dir := t.TempDir()
	a := &app{env: Env{
		Getenv: func(k string) string {
			if k == "CONCH_HOME" {
				return filepath.Join(dir, "home")
			}
			return ""
		},
		Now: time.Now, Cwd: dir, Hostname: "test",
	}}
	h, err := a.openHome()
	if err != nil {
		t.Fatal(err)
	}
	return homeRW{home: h, io: p, committed: committed}
}

func TestRunVersion(t *testing.T) {
	p, out, _ := printerTo(true)
	if err := runVersion(&versionOptions{IO: p}); err != nil {
		t.Fatal(err)
	}
	var v struct{ Version string }
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || v.Version == "" {
		t.Fatalf("conch version --json printed %q (%v)", out, err)
	}
}

// A run's change marks it committed (a failure after it is then a
// warning, never exit 1); a run refused before any commit does not.
func TestRunMarksCommitted(t *testing.T) {
	p, out, _ := printerTo(false)
	var committed bool
	home := testHome(t, p, &committed)
	person := state.Actor{Terminal: true}
	if err := runChatNew(&chatNewOptions{title: "fix the login", Home: home, Actor: person, Cwd: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if !committed || out.String() != "c_1\n" {
		t.Fatalf("chat new: committed %v, printed %q", committed, out)
	}

	committed = false
	err := runChatTaint(&chatTaintOptions{id: "c_99", outside: "a web page", Home: home, Actor: person})
	if exitCode(err) != ExitRefused || committed {
		t.Fatalf("taint of no chat: %v (exit %d), committed %v", err, exitCode(err), committed)
	}
}

// conch backend join's words: the URL trimmed, the token's key and CA,
// --home, the local home; a bad token, a server beyond loopback without
// TLS or a bad --home is usage, and nothing runs.
func TestBackendJoinOptions(t *testing.T) {
	const seed = "SUAMK2FG4MI6UE3ACF3FK3OIQBCEIEZV7NSWFFEW63UXMRLFM2XLAXK4GY"
	tok := join.Token([]byte(seed), []byte{0x30, 0x82, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	var got *backendJoinOptions
	catch := func(o *backendJoinOptions) error { got = o; return nil }
	a := testApp()
	a.env.Getenv = func(k string) string {
		if k == "CONCH_HOME" {
			return "/h/.conch"
		}
		return ""
	}
	if err := parse(t, newBackendJoinCmd(a, catch), " tls://hub:4222 ", tok, "--home", "team"); err != nil {
		t.Fatal(err)
	}
	if got.url != "tls://hub:4222" || string(got.seed) != seed || !bytes.HasPrefix(got.ca, []byte("-----BEGIN CERTIFICATE-----")) || got.home != "team" || got.dir != "/h/.conch" {
		t.Fatalf("got %+v", got)
	}
	for _, args := range [][]string{
		{"tls://hub:4222", "not-a-token"},
		{"nats://hub.example:4222", tok},
		{"tls://hub:4222", tok, "--home", "a b"},
	} {
		got = nil
		if err := parse(t, newBackendJoinCmd(a, catch), args...); !isUsage(err) || got != nil {
			t.Errorf("%q: %v (ran: %v), want usage", args, err, got != nil)
		}
	}
}

// runBackendJoin writes the credentials and the CA (0600) and the
// config's [backend], and says where.
func TestRunBackendJoin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	p, out, _ := printerTo(false)
	o := &backendJoinOptions{url: "tls://hub:4222", seed: []byte("SEED\n"), ca: []byte("CA\n"), dir: dir, IO: p}
	if err := runBackendJoin(o); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{joinCreds: "SEED\n", joinCA: "CA\n"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(b) != want {
			t.Errorf("%s: %q %v, want %q", name, b, err, want)
		}
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
	if err != nil || !strings.Contains(string(cfg), `url = 'tls://hub:4222'`) && !strings.Contains(string(cfg), `url = "tls://hub:4222"`) {
		t.Fatalf("config.toml: %q %v", cfg, err)
	}
	if !strings.HasPrefix(out.String(), "joined tls://hub:4222: [backend] in "+filepath.Join(dir, "config.toml")) {
		t.Fatalf("printed %q", out)
	}
}
