package proc

import "strings"

// shell says whether a program of that name is a shell, which runs a
// command for a harness and is gone the moment the command is.
func shell(name string) bool {
	switch name {
	case "sh", "bash", "dash", "zsh", "fish", "ksh", "busybox":
		return true
	}
	return false
}

// windowsName is a Windows program's name as conch compares it: lower
// case, without .exe.
func windowsName(exe string) string {
	return strings.TrimSuffix(strings.ToLower(exe), ".exe")
}

// windowsShell says whether a Windows program of that name (windowsName's)
// is a shell: a Unix one (Git Bash, MSYS2, Cygwin), cmd.exe or PowerShell.
func windowsShell(name string) bool {
	switch name {
	case "cmd", "powershell", "pwsh":
		return true
	}
	return shell(name)
}
