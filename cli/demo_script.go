package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// demo is a scripted scenario in a throwaway home: each scene says what it
// shows, runs real conch commands in this process, and prints what each
// chat hears.
type demo struct {
	a      *app
	home   string
	folder string
	out    io.Writer
	pid    string
	err    error
}

func (a *app) demo(keep bool) error {
	dir, err := os.MkdirTemp("", "conch-demo-")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	d := &demo{a: a, home: filepath.Join(dir, "home"), folder: filepath.Join(dir, "app"), out: a.env.Out, pid: strconv.Itoa(os.Getpid())}
	if err := os.MkdirAll(filepath.Join(d.folder, "src"), 0o700); err != nil {
		return err
	}
	fmt.Fprintf(d.out, "conch demo: three chats of one person, in a throwaway home (%s).\n", d.home)
	fmt.Fprintf(d.out, "Each line starting with $ is a real conch command; what follows it is its answer.\n")
	for _, scene := range d.scenes() {
		scene()
		if d.err != nil {
			return d.err
		}
	}
	fmt.Fprintf(d.out, "\nThat is conch: chats that know about each other. Next: conch --help, conch help integrations.\n")
	if keep {
		fmt.Fprintf(d.out, "The home is kept at %s (CONCH_HOME=%s conch chats list).\n", d.home, d.home)
	}
	return nil
}

// scenes run in order; each capability adds its own.
func (d *demo) scenes() []func() {
	return []func(){
		d.sceneChats,
		d.sceneReader,
	}
}

// say prints a scene's heading.
func (d *demo) say(format string, args ...any) {
	if d.err == nil {
		fmt.Fprintf(d.out, "\n== "+format+"\n", args...)
	}
}

// run runs one conch command as chat (or as the person when chat is ""),
// prints it and its answer, and returns the answer and the exit code.
func (d *demo) run(chat string, args ...string) (string, int) {
	if d.err != nil {
		return "", 0
	}
	shown := "conch " + strings.Join(quoteArgs(args), " ")
	if chat != "" {
		shown = "CONCH_CHAT=" + chat + " " + shown
	}
	shown = strings.ReplaceAll(strings.ReplaceAll(shown, d.folder, "~/app"), "--pid "+d.pid, "--pid $PPID")
	fmt.Fprintf(d.out, "$ %s\n", shown)
	var out, errOut bytes.Buffer
	env := d.a.env
	env.Out, env.Err, env.In = &out, &errOut, strings.NewReader("")
	env.Cwd = d.folder
	env.Getenv = func(k string) string {
		switch k {
		case "CONCH_HOME":
			return d.home
		case "CONCH_CHAT":
			return chat
		case "CONCH_NOW":
			return ""
		}
		return d.a.env.Getenv(k)
	}
	code := Main(args, env)
	text := strings.ReplaceAll(out.String()+errOut.String(), d.folder, "~/app")
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line != "" {
			fmt.Fprintf(d.out, "    %s\n", line)
		}
	}
	if code != 0 {
		fmt.Fprintf(d.out, "    (exit %d)\n", code)
	}
	return out.String(), code
}

// must is run for a command the scene needs to succeed.
func (d *demo) must(chat string, args ...string) string {
	out, code := d.run(chat, args...)
	if code != 0 && d.err == nil {
		d.err = fmt.Errorf("demo: conch %s exited %d", strings.Join(args, " "), code)
	}
	return out
}

func quoteArgs(args []string) []string {
	q := make([]string, len(args))
	for i, s := range args {
		if s == "" || strings.ContainsAny(s, " \"'<>[]()*;&|$`") {
			q[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		} else {
			q[i] = s
		}
	}
	return q
}

func (d *demo) file(name string) string { return filepath.Join(d.folder, name) }

func (d *demo) sceneChats() {
	d.say("Three chats register, all working in the same folder")
	d.must("", "chat", "new", "--title", "Fix the login", "--folder", d.folder, "--mode", "auto")
	d.must("", "chat", "new", "--title", "Release notes", "--folder", d.folder, "--mode", "auto")
	d.must("", "chat", "new", "--title", "Watch the deploy", "--folder", d.folder, "--origin", "app:telegram")
}

func (d *demo) sceneReader() {
	d.say("“Fix the login” starts a reply and edits src/auth.ts; “Release notes” hears of it at its next step")
	d.must("c_1", "reply", "start", "--person", "--pid", d.pid)
	d.must("c_1", "step", "edit", "--file", d.file("src/auth.ts"))
	d.must("c_2", "reply", "start", "--person", "--pid", d.pid)
	d.must("c_2", "notes")
	d.say("The deploy watcher runs commands there: said once, softly")
	d.must("c_3", "step", "run", "--tool", "Bash", "--pid", d.pid)
	d.must("c_2", "step", "read", "--file", d.file("CHANGELOG.md"))
	d.must("c_2", "notes")
	d.say("“Release notes” edits the same file: both hear it, once")
	d.must("c_2", "step", "edit", "--file", d.file("src/auth.ts"))
	d.must("c_2", "notes")
	d.must("c_1", "notes")
	d.say("What are my other chats doing? (asked by “Release notes”)")
	d.must("c_2", "chats", "list")
}
