package cli

import (
	"bytes"
	"strings"

	"github.com/conch-sh/conch/render"
)

// Answer is what one conch command said, run inside this process by Call.
type Answer struct {
	Code     int      // its exit code
	Words    string   // what it printed for people and models
	JSON     []byte   // what its --json prints: the value, or the error object
	Error    string   // its error line, without "conch: " ("" when it did its work)
	Warnings []string // its warnings, without "conch: warning: "
}

// Call runs one conch command (args, as typed after conch) in this
// process, as a tool of conch mcp does: the command's own options, words,
// rules and exit code. It never reads a terminal or standard input, never
// replaces the process (a home on a backend must be open to it:
// env.OpenBackend), and writes to no stream of the process's.
func Call(env Env, args []string) Answer {
	var out, errOut bytes.Buffer
	var kept []byte
	env.In, env.Out, env.Err = strings.NewReader(""), &out, &errOut
	env.Terminal, env.Exec = false, nil
	env.Keep = func(data []byte) { kept = data }
	code := Main(args, env)
	ans := Answer{Code: code, Words: out.String(), JSON: kept}
	for _, line := range strings.Split(errOut.String(), "\n") {
		switch {
		case strings.HasPrefix(line, "conch: warning: "):
			ans.Warnings = append(ans.Warnings, strings.TrimPrefix(line, "conch: warning: "))
		case strings.HasPrefix(line, "conch: ") && code != ExitOK && ans.Error == "":
			ans.Error = strings.TrimPrefix(line, "conch: ")
		}
	}
	if code != ExitOK {
		if ans.Error == "" {
			ans.Error = strings.TrimSpace(errOut.String())
		}
		if kept == nil {
			ans.JSON = render.ErrorJSON(ans.Error, code)
		}
	}
	return ans
}
