package proc

import "testing"

// TestShells: the programs the climb to the harness goes past, on Unix
// and on Windows (whose names are compared in lower case, without .exe).
func TestShells(t *testing.T) {
	for _, name := range []string{"sh", "bash", "dash", "zsh", "fish", "ksh", "busybox"} {
		if !shell(name) || !windowsShell(windowsName(name+".exe")) {
			t.Errorf("%s is no shell", name)
		}
	}
	for _, name := range []string{"conch", "claude", "codex", "node", "cmd", "pwsh", "-zsh", "Bash"} {
		if shell(name) {
			t.Errorf("%s is a shell on Unix", name)
		}
	}
	for exe, want := range map[string]bool{"cmd.exe": true, "PowerShell.exe": true, "pwsh.EXE": true, "BASH.EXE": true,
		"conch.exe": false, "claude.exe": false, "node.exe": false, "cmd.exe.bak": false} {
		if got := windowsShell(windowsName(exe)); got != want {
			t.Errorf("%s a shell on Windows: %v, want %v", exe, got, want)
		}
	}
	if windowsName("Conch.EXE") != "conch" {
		t.Errorf("conch.exe is %q to the climb", windowsName("Conch.EXE"))
	}
}
