package harness

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/conch-sh/conch/state"
)

func TestEnvKeys(t *testing.T) {
	config := `model_provider = "fake"
[model_providers.fake]
env_key = "FAKE_OPENAI_API_KEY"
[model_providers.azure]
  env_key='AZURE_KEY'
[model_providers.bad]
env_key = "$(rm -rf /)"
env_key_instructions = "NOT_THIS"
env_key = "FAKE_OPENAI_API_KEY"
`
	if got, want := envKeys(config), []string{"FAKE_OPENAI_API_KEY", "AZURE_KEY"}; !slices.Equal(got, want) {
		t.Errorf("envKeys = %q, want %q", got, want)
	}
}

func TestCodexKeyVars(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("env_key = \"MY_KEY\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CODEX_HOME": dir}
	if got := codexKeyVars(func(k string) string { return env[k] }, "/nowhere"); !slices.Equal(got, []string{"MY_KEY"}) {
		t.Errorf("codexKeyVars = %q", got)
	}
	if got := codexKeyVars(func(string) string { return "" }, ""); got != nil {
		t.Errorf("no CODEX_HOME, no home: %q", got)
	}
}

func TestEnvNamed(t *testing.T) {
	names := []string{"ANTHROPIC_*", "*_API_KEY", "HTTPS_PROXY"}
	for k, want := range map[string]bool{
		"ANTHROPIC_API_KEY": true, "ANTHROPIC_BASE_URL": true, "OPENROUTER_API_KEY": true,
		"HTTPS_PROXY": true, "HTTPS_PROXY_X": false, "ANTHROPIC": false, "PATH": false, "API_KEY": false,
	} {
		if got := envNamed(names, k); got != want {
			t.Errorf("envNamed(%q) = %v, want %v", k, got, want)
		}
	}
}

func TestHarnessEnv(t *testing.T) {
	environ := []string{
		"ANTHROPIC_API_KEY=sk-ant-x", "ANTHROPIC_BASE_URL=http://127.0.0.1:9", "HTTPS_PROXY=http://p:1",
		"CLAUDE_ENV_FILE=/tmp/env", "CLAUDE_CODE_SESSION_ID=s1", "CLAUDE_CODE_ENTRYPOINT=cli",
		"CONCH_CHAT=c_9", "CONCH_HOME=/h", "SENDER_SECRET=no", "EMPTY_=", "ANTHROPIC_EMPTY=",
	}
	r := &run{caps: CapsOf(claudeName),
		env: Env{Environ: func() []string { return environ }, Getenv: func(string) string { return "" }}}
	got := harnessEnv(r, claudeResume, 0)
	want := []string{"ANTHROPIC_API_KEY=sk-ant-x", "ANTHROPIC_BASE_URL=http://127.0.0.1:9", "CLAUDE_CODE_ENTRYPOINT=cli", "HTTPS_PROXY=http://p:1"}
	if !slices.Equal(got, want) {
		t.Errorf("harnessEnv = %q, want %q", got, want)
	}
}

func TestOwnFlags(t *testing.T) {
	for _, c := range []struct {
		own   func([]string) ([]string, string)
		args  string
		flags string
		mode  string
	}{
		{claudeOwn, "-p hi --permission-mode bypassPermissions", "--permission-mode bypassPermissions", state.ModeAuto},
		{claudeOwn, "-p hi --permission-mode=plan", "--permission-mode plan", state.ModePlan},
		{claudeOwn, "-p hi --permission-mode acceptEdits", "--permission-mode acceptEdits", state.ModeAsk},
		{claudeOwn, "-p hi --dangerously-skip-permissions", "--dangerously-skip-permissions", state.ModeAuto},
		{claudeOwn, "-p hi --permission-mode weird", "", ""},
		{claudeOwn, "-p hi", "", ""},
		{claudeOwn, "-p --permission-mode", "", ""},
		{codexOwn, "exec --full-auto hi", "--full-auto", state.ModeAuto},
		{codexOwn, "exec --dangerously-bypass-approvals-and-sandbox hi", "--dangerously-bypass-approvals-and-sandbox", state.ModeAuto},
		{codexOwn, "exec -s read-only hi", `-c sandbox_mode="read-only"`, state.ModeAsk},
		{codexOwn, "exec --sandbox=workspace-write hi", `-c sandbox_mode="workspace-write"`, state.ModeAuto},
		{codexOwn, "exec -s nonsense hi", "", ""},
		{codexOwn, "exec hi", "", ""},
		{approvalOwn, "--approval-mode yolo -p hi", "--approval-mode yolo", state.ModeAuto},
		{approvalOwn, "--approval-mode=auto_edit -p hi", "--approval-mode auto_edit", state.ModeAsk},
		{approvalOwn, "-y -p hi", "--approval-mode yolo", state.ModeAuto},
		{approvalOwn, "--approval-mode plan", "--approval-mode plan", state.ModePlan},
		{approvalOwn, "--approval-mode nope", "", ""},
	} {
		flags, mode := c.own(strings.Fields(c.args))
		if strings.Join(flags, " ") != c.flags || mode != c.mode {
			t.Errorf("%s: %q %q, want %q %q", c.args, flags, mode, c.flags, c.mode)
		}
	}
}

func TestProgramOf(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "claude")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := programOf("claude", dir, nil); !slices.Equal(got, []string{p}) {
		t.Errorf("on the PATH: %q", got)
	}
	if got := programOf("claude", "", nil); got != nil {
		t.Errorf("nowhere: %q", got)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"/opt/claude", "-p", "x"}, "/opt/claude"},
		{[]string{"/usr/bin/node", "--max-old-space-size=8192", "/opt/gemini/index.js", "-p"}, "/usr/bin/node --max-old-space-size=8192 /opt/gemini/index.js"},
		{[]string{"/usr/bin/node", "relative.js"}, ""},
		{[]string{"pi"}, ""},
		{[]string{"sh", "-c"}, ""},
	} {
		if got := strings.Join(programOf("no-such-harness", "", c.args), " "); got != c.want {
			t.Errorf("programOf(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// FuzzEnvKeys: whatever a config holds, envKeys gives only plain variable
// names, each once.
func FuzzEnvKeys(f *testing.F) {
	f.Add("env_key = \"A_KEY\"\n")
	f.Add("env_key='x'\nenv_key = \"x\"\n")
	f.Add("env_key = \"$(id)\"")
	f.Fuzz(func(t *testing.T, config string) {
		got := envKeys(config)
		for i, k := range got {
			if !plainVar(k) || slices.Contains(got[:i], k) {
				t.Fatalf("envKeys(%q) = %q", config, got)
			}
		}
	})
}

// FuzzOwnFlags: whatever a first run's command line holds, the flags a
// resume takes from it are only those of its permission mode, with a
// value from the harness's own choices, and the mode they mean is one of
// conch's.
func FuzzOwnFlags(f *testing.F) {
	f.Add("-p\x00hi\x00--permission-mode\x00bypassPermissions")
	f.Add("exec\x00-s\x00read-only")
	f.Add("--permission-mode=plan\x00--sandbox=danger-full-access")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		for _, own := range []func([]string) ([]string, string){claudeOwn, codexOwn, approvalOwn} {
			flags, mode := own(args)
			if (len(flags) == 0) != (mode == "") || mode != "" && !slices.Contains(state.Modes, mode) {
				t.Fatalf("%q: %q %q", args, flags, mode)
			}
			switch {
			case len(flags) == 2 && flags[0] == "--approval-mode":
				if !slices.Contains([]string{"plan", "yolo", "auto", "default", "auto_edit", "auto-edit"}, flags[1]) {
					t.Fatalf("%q gives %q", args, flags)
				}
			case len(flags) == 2 && flags[0] == "--permission-mode":
				if !slices.Contains([]string{"plan", "bypassPermissions", "auto", "default", "manual", "acceptEdits", "dontAsk"}, flags[1]) {
					t.Fatalf("%q gives %q", args, flags)
				}
			case len(flags) == 2 && flags[0] == "-c":
				if !slices.Contains([]string{`sandbox_mode="read-only"`, `sandbox_mode="workspace-write"`, `sandbox_mode="danger-full-access"`}, flags[1]) {
					t.Fatalf("%q gives %q", args, flags)
				}
			case len(flags) == 1:
				if !slices.Contains([]string{"--dangerously-skip-permissions", "--full-auto", "--dangerously-bypass-approvals-and-sandbox"}, flags[0]) {
					t.Fatalf("%q gives %q", args, flags)
				}
			case len(flags) != 0:
				t.Fatalf("%q gives %q", args, flags)
			}
		}
	})
}
