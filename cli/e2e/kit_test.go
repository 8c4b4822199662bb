// Package e2e drives the real harness binaries (Claude Code, Codex, …)
// against a scripted fake model server on 127.0.0.1, with conch's hooks
// installed, and checks what conch recorded and what the model was sent.
//
// The binaries come from the npm registry, pinned in
// testdata/e2e/harnesses.txt, installed once into a cache
// (CONCH_E2E_CACHE, else the user's cache folder). With CONCH_E2E_LATEST=1
// each is instead the newest version the registry serves (npm view), in a
// cache folder of its own, and a test that fails names the harness and
// version it ran. Without npm, every test here skips with a message saying
// so. Apart from npm's own install, nothing here reaches any address but
// 127.0.0.1.
package e2e

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"

	// The conch binary is built by TestMain, which go test's cache cannot
	// see: importing what it is built from makes a change to conch a change
	// to this test, so a cached pass never stands for code it did not run.
	_ "github.com/conch-sh/conch/cli"
)

// conchBin is the conch binary built once for the whole package (TestMain).
var conchBin string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "conch-e2e-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	conchBin = filepath.Join(dir, "conch")
	build := exec.Command("go", "build", "-o", conchBin, "github.com/conch-sh/conch/cmd/conch")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building conch:", err)
		return 1
	}
	// conch mcp runs conch-mcp beside conch.
	build = exec.Command("go", "build", "-o", filepath.Join(dir, "conch-mcp"), "github.com/conch-sh/conch/cmd/conch-mcp")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building conch-mcp:", err)
		return 1
	}
	return m.Run()
}

// repoRoot is the repository's top folder.
func repoRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// harnessPackage is the pinned package@version for a harness name.
func harnessPackage(t testing.TB, name string) string {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(t), "testdata", "e2e", "harnesses.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) == 2 && fields[0] == name {
			return fields[1]
		}
	}
	t.Fatalf("testdata/e2e/harnesses.txt names no harness %q", name)
	return ""
}

// splitPackage is a package@version's package and version (the @ of a
// scope is the package's).
func splitPackage(pkg string) (name, version string) {
	i := strings.LastIndex(pkg, "@")
	if i <= 0 {
		return pkg, ""
	}
	return pkg[:i], pkg[i+1:]
}

// latest is what CONCH_E2E_LATEST=1 asks for: each harness at the newest
// version the registry serves, not the pin.
func latest() bool { return os.Getenv("CONCH_E2E_LATEST") == "1" }

// newest holds the registry's newest version of each package, asked once
// per run (go test runs this package's tests in one process).
var newest sync.Map

// latestPackage is pinned (package@version) at the newest version the
// npm registry serves.
func latestPackage(t testing.TB, npm, pinned string) string {
	t.Helper()
	name, _ := splitPackage(pinned)
	if v, ok := newest.Load(name); ok {
		return name + "@" + v.(string)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, npm, "view", name, "version").Output()
	v := strings.TrimSpace(string(out))
	if err != nil || v == "" || strings.ContainsAny(v, " \n/") {
		t.Fatalf("e2e: CONCH_E2E_LATEST=1: npm view %s version: %v %q", name, err, out)
	}
	newest.Store(name, v)
	return name + "@" + v
}

// ranWith says, in a test that fails, which harness and version it ran
// under CONCH_E2E_LATEST=1: "claude @anthropic-ai/claude-code@X (latest;
// pinned Y)".
func ranWith(t testing.TB, name, pkg, pinned string) {
	_, pin := splitPackage(pinned)
	what := fmt.Sprintf("%s %s (latest; pinned %s)", name, pkg, pin)
	t.Logf("e2e: %s", what)
	t.Cleanup(func() {
		if t.Failed() {
			t.Errorf("e2e: this failed with %s", what)
		}
	})
}

var installMu sync.Mutex

// harnessBin installs the pinned harness (with CONCH_E2E_LATEST=1, the
// newest) from the npm registry into the cache (once per version; later
// runs reuse it) and returns the path of its binary. It skips the test
// when npm is not on the machine.
func harnessBin(t testing.TB, name string) string {
	t.Helper()
	if os.Getenv("CONCH_E2E") == "off" {
		t.Skip("e2e: CONCH_E2E=off")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("e2e: npm is not on this machine, so the real %s cannot be installed; .ci/run installs what this needs", name)
	}
	pkg := harnessPackage(t, name)
	if latest() {
		pinned := pkg
		pkg = latestPackage(t, npm, pinned)
		ranWith(t, name, pkg, pinned)
	}
	cache := os.Getenv("CONCH_E2E_CACHE")
	if cache == "" {
		uc, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		cache = filepath.Join(uc, "conch-e2e")
	}
	dir := filepath.Join(cache, strings.NewReplacer("/", "+", "@", "_").Replace(strings.TrimPrefix(pkg, "@")))
	bin := filepath.Join(dir, "node_modules", ".bin", name)
	installMu.Lock()
	defer installMu.Unlock()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Another test process (go test runs packages in parallel) may be
	// installing the same package.
	fl := flock.New(filepath.Join(dir, ".install.lock"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if ok, err := fl.TryLockContext(ctx, 200*time.Millisecond); err != nil || !ok {
		t.Fatalf("e2e: lock %s: %v", dir, err)
	}
	defer fl.Unlock()
	done := filepath.Join(dir, ".installed")
	if _, err := os.Stat(done); err == nil {
		if _, err := os.Stat(bin); err == nil {
			return bin
		}
	}
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, pkg)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("e2e: npm install %s: %v\n%s", pkg, err, out)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("e2e: npm installed %s but %s is not there: %v", pkg, bin, err)
	}
	if err := os.WriteFile(done, []byte(pkg+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return bin
}

// conch runs the conch binary with env (KEY=VALUE, added to a clean
// environment that has PATH and HOME) and returns its standard output.
func conch(t testing.TB, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(conchBin, args...)
	cmd.Env = append(baseEnv(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), fmt.Errorf("conch %s: exit %d: %s", strings.Join(args, " "), ee.ExitCode(), strings.TrimSpace(stderr.String()))
		}
		return string(out), err
	}
	return string(out), nil
}

// baseEnv is the environment every process here starts from: PATH with
// conch's folder first, and nothing of the machine's proxies or keys.
func baseEnv() []string {
	return []string{
		"PATH=" + filepath.Dir(conchBin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"LANG=C.UTF-8",
		"TERM=xterm-256color",
	}
}

// workInProgress commits everything in the git repository dir, with a
// README, then changes the README, as a checkout a chat is working in
// looks; it returns the README's path and a git that runs in dir.
func workInProgress(t testing.TB, dir string) (string, func(args ...string) string) {
	t.Helper()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=e2e@example.com", "-c", "user.name=e2e"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v %s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	readme := filepath.Join(dir, "README")
	if err := os.WriteFile(readme, []byte("first\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "first")
	if err := os.WriteFile(readme, []byte("first\nwork in progress\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return readme, git
}

// TestSplitPackage: a scoped package's @ is the package's, the last one
// the version's.
func TestSplitPackage(t *testing.T) {
	for pkg, want := range map[string][2]string{
		"@anthropic-ai/claude-code@2.1.332": {"@anthropic-ai/claude-code", "2.1.332"},
		"opencode-ai@1.18.33":               {"opencode-ai", "1.18.33"},
		"@openai/codex":                     {"@openai/codex", ""},
	} {
		if n, v := splitPackage(pkg); n != want[0] || v != want[1] {
			t.Errorf("splitPackage(%q) = %q, %q; want %q, %q", pkg, n, v, want[0], want[1])
		}
	}
}
