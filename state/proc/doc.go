// Package proc is what conch knows of the processes on this computer: a
// process's start time (so a pid reused by a stranger keeps no reply
// alive), the harness that runs a conch command, Codex's daemon and the
// TUI it serves, and the commands conch starts. Linux reads /proc; macOS
// asks the kernel (sysctl kern.proc.pid, kern.procargs2, proc_info), and
// FreeBSD too (kern.proc.pid, kern.proc.args: no folders); Windows its
// process API (start times and parents, no command lines); elsewhere a
// pid's existence is all there is. It knows nothing of chats:
// state asks it.
package proc
