package harness

// The tool-to-family table: what a tool does, in the families of SPEC §1's
// steps, and the files it works on, in Claude Code's words for its tools.
// A harness whose tools have other names says them in these words: in
// its adapter's Tools (the names alone), or in its decoder (names and
// arguments, as cursor.go, opencode.go and pi.go do).

import (
	"slices"
	"strings"
)

// ToolWord is one of a harness's tools in Claude Code's words: the tool
// Name is, for the step's family, the guard and the taint, the tool As.
type ToolWord struct{ Name, As string }

// toolWord is the harness's tool in Claude Code's words (its adapter's
// Tools), or as it is named.
func toolWord(harness, tool string) string {
	if a := Of(harness); a != nil {
		for _, w := range a.Tools {
			if w.Name == tool {
				return w.As
			}
		}
	}
	return tool
}

// Family is the step family of a tool, in Claude Code's words (toolWord),
// and the files it works on (as the harness gave them: abs makes them
// absolute).
func Family(tool string, input Fields) (family string, files []string) {
	file := func(key string) []string {
		if f := input.Str(key); f != "" {
			return []string{f}
		}
		return nil
	}
	// Claude Code's tools, and apply_patch (Codex's, and the word a
	// plugin's patch tool is said in).
	switch tool {
	case "Edit", "Write", "MultiEdit":
		return "edit", file("file_path")
	case "NotebookEdit":
		return "edit", file("notebook_path")
	case "Read":
		return "read", file("file_path")
	case "NotebookRead":
		return "read", file("notebook_path")
	case "Grep", "Glob", "LS":
		return "read", nil
	case "WebFetch", "WebSearch":
		return "browse", nil
	case "Bash", "BashOutput", "KillShell", "KillBash":
		command := input.Str("command")
		if commits(command) {
			return "edit", nil
		}
		if f := conchFamily(command); f != "" {
			return f, nil
		}
		return "run", nil
	case "apply_patch":
		return "edit", patchFiles(input.Str("command") + input.Str("input") + input.Str("patch"))
	}
	return "other", nil
}

// shellTool says whether a tool, in Claude Code's words, runs a shell
// command line (its input's command), which the guard reads.
func shellTool(tool string) bool { return tool == "Bash" }

// conchShell says whether a tool call is a shell command that is only
// conch's own (conch chats list, conch chat message, …): Bash as the
// harness names it (Claude Code's, and theirs that say their tools in its
// words), with the call's id.
func conchShell(ev *Event) bool {
	return ev.Tool == "Bash" && ev.ToolUse != "" && conchFamily(ev.Input.Str("command")) != ""
}

// outsideSource is what a web tool read from outside: the URL fetched, or
// the search made.
func outsideSource(w Wording, tool string, input Fields) string {
	switch tool {
	case "WebFetch":
		if u := input.Str("url"); u != "" {
			return w.Clean(u)
		}
		// Gemini CLI's web_fetch takes a prompt that holds its URLs.
		if urls := promptURLs(input.Str("prompt")); urls != "" {
			return w.Clean(urls)
		}
		return "web fetch"
	case "WebSearch":
		if q := w.Clean(input.Str("query")); q != "" {
			return "web search: " + q
		}
		return "web search"
	}
	return ""
}

// promptURLs are the http and https URLs a prompt names, space-separated.
func promptURLs(prompt string) string {
	var urls []string
	for _, w := range strings.Fields(prompt) {
		w = strings.TrimRight(strings.TrimLeft(w, "(<[\"'"), ")>],.;:!?\"'")
		if strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://") {
			urls = appendNew(urls, w)
		}
	}
	return strings.Join(urls, " ")
}

// commits says whether a shell command commits, or otherwise rewrites the
// work tree through git: a commit counts as editing (SPEC §1).
func commits(command string) bool {
	if command == "" {
		return false
	}
	for _, part := range shellParts(command) {
		words := strings.Fields(part)
		for len(words) > 0 && strings.Contains(words[0], "=") {
			words = words[1:] // VAR=value before the command
		}
		if len(words) == 0 || (words[0] != "git" && !strings.HasSuffix(words[0], "/git")) {
			continue
		}
		if gitRewrites(gitSubcommand(words[1:])) {
			return true
		}
	}
	return false
}

// conchFamily is the family of a shell command that is only conch's own
// commands (conch chats list, conch chat message, …): talking with the
// other chats, or waiting for one, not running commands in the folder
// (the other chats would be told to wait for it). It is "" for any other
// command, one that runs anything beside conch included.
func conchFamily(command string) string {
	family := ""
	for _, part := range shellParts(command) {
		words := strings.Fields(part)
		for len(words) > 0 && strings.Contains(words[0], "=") {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		if words[0] != "conch" && !strings.HasSuffix(words[0], "/conch") {
			if words[0] == "cd" || words[0] == "true" || words[0] == "echo" && !strings.Contains(part, ">") {
				continue // moving about, or words piped to conch, run nothing
			}
			return ""
		}
		if family == "" {
			family = "talk"
		}
		if len(words) > 1 && words[1] == "wait" {
			family = "wait"
		}
	}
	return family
}

// shellParts are a shell command's simple commands, split at ; & | and
// newlines and parentheses (a rough cut: quotes are not read).
func shellParts(command string) []string {
	return strings.FieldsFunc(command, func(r rune) bool {
		return r == ';' || r == '&' || r == '|' || r == '\n' || r == '(' || r == ')'
	})
}

// gitRewrites says whether a git subcommand changes the work tree's files
// (a switch, not a map: a map would be built at every process's start).
func gitRewrites(sub string) bool {
	switch sub {
	case "commit", "merge", "rebase", "cherry-pick", "revert", "am",
		"pull", "stash", "reset", "checkout", "switch", "restore":
		return true
	}
	return false
}

// gitSubcommand is the first word after git's own options (-C DIR and
// -c NAME=VALUE take one more word).
func gitSubcommand(words []string) string {
	for i := 0; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-C" || w == "-c" || w == "--git-dir" || w == "--work-tree":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			return w
		}
	}
	return ""
}

// patchFiles are the files an apply_patch patch names: added, updated,
// deleted, and moved to.
func patchFiles(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, p := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if strings.HasPrefix(line, p) {
				if f := strings.TrimSpace(strings.TrimPrefix(line, p)); f != "" {
					out = appendNew(out, f)
				}
			}
		}
	}
	return out
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
