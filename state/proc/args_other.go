//go:build !linux && !darwin && !(freebsd && (amd64 || arm64 || riscv64))

package proc

// Elsewhere than Linux, macOS and FreeBSD's 64-bit systems conch does not
// read another process's command line, environment or folder: no Codex
// daemon is told from its TUI, and no harness's words are known.

// IsCodexDaemon says whether process pid is Codex's app-server daemon:
// here, never.
func IsCodexDaemon(pid int) bool { return false }

// Args are the command-line words process pid started with: here, none.
func Args(pid int) []string { return nil }

// CodexClient is the TUI a Codex daemon serves a session in folder for:
// here, none.
func CodexClient(daemon int, folder, codexHome string) int { return 0 }

// Env is one variable of the environment process pid started with: here,
// never known.
func Env(pid int, name string) string { return "" }

// Environ is process pid's environment: here, none is read.
func Environ(pid int) []string { return nil }

// Parent is process pid's parent: here, not read.
func Parent(pid int) int { return 0 }
