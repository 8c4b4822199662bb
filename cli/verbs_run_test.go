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

// conch top's run reads its clock, colour and streams from its options:
// --once prints one frame of the home and changes nothing; --json
// without --once is usage; streams that are not a terminal are refused.
func TestRunTop(t *testing.T) {
	p, out, _ := printerTo(false)
	var committed bool
	home := testHome(t, p, &committed)
	person := state.Actor{Terminal: true}
	if err := runChatNew(&chatNewOptions{title: "fix the login", Home: home, Actor: person, Cwd: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	committed = false
	now := func() time.Time { return time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC) }
	o := &topOptions{once: true, width: 60, height: 10, IO: p, Home: home, Actor: person, Now: now}
	if err := runTop(o); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); !strings.HasPrefix(out.String(), "conch top ·") || len(lines) != 10 || !strings.Contains(out.String(), "fix the login") || committed {
		t.Fatalf("conch top --once: committed %v, printed %q", committed, out)
	}

	jp, _, _ := printerTo(true)
	if err := runTop(&topOptions{IO: jp, Home: home, Actor: person, Now: now}); !isUsage(err) {
		t.Fatalf("conch top --json without --once: %v, want usage", err)
	}
	var in, screen bytes.Buffer
	err := runTop(&topOptions{IO: p, Home: home, Actor: person, Now: now, In: &in, Out: &screen})
	if exitCode(err) != ExitRefused || screen.Len() != 0 {
		t.Fatalf("conch top with no terminal: %v (exit %d), drew %q", err, exitCode(err), screen.String())
	}
}

// A wait's run takes the actor from its options: cancelling a wait the
// person has not registered is refused and commits nothing; the list of
// no waits commits nothing either.
func TestRunWaitCancelAndList(t *testing.T) {
	p, out, _ := printerTo(true)
	var committed bool
	home := testHome(t, p, &committed)
	person := state.Actor{Terminal: true}
	err := runWaitCancel(&waitCancelOptions{id: "c_1", IO: p, Home: home, Actor: person})
	if exitCode(err) != ExitRefused || committed || out.Len() != 0 {
		t.Fatalf("wait cancel of no wait: %v (exit %d), committed %v, printed %q", err, exitCode(err), committed, out)
	}
	if err := runWaitList(&waitListOptions{IO: p, Home: home, Actor: person}); err != nil || committed {
		t.Fatalf("wait list: %v, committed %v", err, committed)
	}
	var got struct{ Waits []json.RawMessage }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got.Waits) != 0 {
		t.Fatalf("wait list --json printed %q (%v)", out, err)
	}
}

// conch install mcp --print writes its block to the options' Out.
func TestRunInstallMCP(t *testing.T) {
	var out bytes.Buffer
	if err := runInstallMCP(&installMCPOptions{print: true, conch: "/opt/conch", Out: &out}); err != nil {
		t.Fatal(err)
	}
	var block struct {
		MCPServers map[string]struct{ Command string } `json:"mcpServers"`
	}
	if err := json.Unmarshal(out.Bytes(), &block); err != nil || block.MCPServers["conch"].Command != "/opt/conch" {
		t.Fatalf("printed %q (%v)", out.String(), err)
	}
}
