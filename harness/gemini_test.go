package harness

import (
	"os"
	"path/filepath"
	"testing"
)

// TestChatPrefix: the CONCH_CHAT conch puts before a shell command is
// known again, and only it.
func TestChatPrefix(t *testing.T) {
	for command, want := range map[string]string{
		"export CONCH_CHAT=c_1; conch chats list":  "export CONCH_CHAT=c_1; ",
		"export CONCH_CHAT=c_12; cd x; conch step": "export CONCH_CHAT=c_12; ",
		"export CONCH_CHAT=$(evil); conch":         "",
		"export CONCH_CHAT=c_1":                    "",
		"conch chats list":                         "",
		" export CONCH_CHAT=c_1; conch":            "",
	} {
		if got := chatPrefix(command); got != want {
			t.Errorf("chatPrefix(%q) = %q, want %q", command, got, want)
		}
	}
}

// TestGeminiMode: Gemini CLI's approval mode from its command line, else
// the folder's settings, else the person's, else default.
func TestGeminiMode(t *testing.T) {
	folder, home := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"node", "gemini.js", "--approval-mode", "plan", "-p", "x"}, "plan"},
		{[]string{"node", "gemini.js", "--approval-mode=auto_edit"}, "auto_edit"},
		{[]string{"node", "gemini.js", "-y"}, "yolo"},
		{[]string{"node", "gemini.js", "--yolo", "-p", "--approval-mode"}, "yolo"},
		{[]string{"node", "gemini.js"}, "default"},
		{nil, "default"},
	} {
		if got := geminiMode(c.args, folder, home); got != c.want {
			t.Errorf("geminiMode(%q) = %q, want %q", c.args, got, c.want)
		}
	}
	write := func(dir, mode string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, ".gemini"), 0o755); err != nil {
			t.Fatal(err)
		}
		data := `{"general": {"defaultApprovalMode": "` + mode + `"}}`
		if err := os.WriteFile(filepath.Join(dir, ".gemini", "settings.json"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(home, "auto_edit")
	if got := geminiMode(nil, folder, home); got != "auto_edit" {
		t.Errorf("with the person's settings: %q", got)
	}
	write(folder, "plan")
	if got := geminiMode(nil, folder, home); got != "plan" {
		t.Errorf("with the folder's settings: %q", got)
	}
	if got := geminiMode([]string{"gemini", "--yolo"}, folder, home); got != "yolo" {
		t.Errorf("the command line does not win over the settings: %q", got)
	}
	for mode, want := range map[string]string{"yolo": "auto", "auto_edit": "ask", "default": "ask", "plan": "plan"} {
		if got := harnessMode(mode); got != want {
			t.Errorf("harnessMode(%q) = %q, want %q", mode, got, want)
		}
	}
}
