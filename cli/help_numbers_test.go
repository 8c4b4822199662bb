package cli

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/conch-sh/conch/state"
)

// helpTexts are every text help prints, as written: each command's and
// topic's words and each flag's.
func helpTexts(t *testing.T) map[string]string {
	t.Helper()
	a := &app{env: Env{Getenv: func(string) string { return "" }}}
	texts := map[string]string{}
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		name := cmd.CommandPath()
		texts[name+" short"], texts[name+" long"], texts[name+" example"] = cmd.Short, cmd.Long, cmd.Example
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) { texts[name+" --"+f.Name] = f.Usage })
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(a.newRoot(nil))
	return texts
}

var placeholder = regexp.MustCompile(`\{\{(\w*)\}\}`)

// TestHelpSaysBoundsFromConstants: a help text says a bound by its
// constant (issue 26), so the help a person reads is the bound conch
// keeps, and a bound changes in one place.
func TestHelpSaysBoundsFromConstants(t *testing.T) {
	texts := helpTexts(t)
	says := map[string]string{}
	for _, n := range slices.Concat(helpNumbers(), helpLists()) {
		says[n.name] = n.says
	}
	used := map[string]bool{}
	// The words right after each bound where a text says it: the same
	// number before the same word elsewhere is the bound written by hand.
	after := map[string]bool{}
	for where, text := range texts {
		for _, m := range placeholder.FindAllStringSubmatchIndex(text, -1) {
			name := text[m[2]:m[3]]
			if _, ok := says[name]; !ok {
				t.Errorf("%s: {{%s}} is no bound help knows (helpNumbers)", where, name)
				continue
			}
			used[name] = true
			if next := strings.Fields(text[m[1]:]); len(next) > 0 && strings.Trim(next[0], ",.;:()") != "" {
				after[says[name]+" "+strings.Trim(next[0], ",.;:()")] = true
			}
		}
		if got := sayNumbers(text); strings.Contains(got, "{{") {
			t.Errorf("%s: a placeholder is left once the numbers are in: %q", where, got)
		}
	}
	for _, n := range slices.Concat(helpNumbers(), helpLists()) {
		if !used[n.name] {
			t.Errorf("helpNumbers has %s, which no help text says", n.name)
		}
	}
	for where, text := range texts {
		flat := strings.Join(strings.Fields(text), " ")
		for phrase := range after {
			if regexp.MustCompile(`(^|[^\w,{])` + regexp.QuoteMeta(phrase) + `\b`).MatchString(flat) {
				t.Errorf("%s: says %q by hand: write the bound's {{Name}}", where, phrase)
			}
		}
	}
}

// TestHelpPrintsTheBounds renders help as a person reads it and compares
// it with the constants.
func TestHelpPrintsTheBounds(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "security"}, fmt.Sprintf("%d messages, %d replies started, %d per pair, %d waiting", state.ChainMessages, state.ChainStarted, state.ChainPair, state.MaxWaiting)},
		{[]string{"help", "security"}, fmt.Sprintf("past %s bytes quoted", count(8000))},
		{[]string{"claim", "--help"}, fmt.Sprintf("At most %d live claims a chat", state.MaxClaims)},
		{[]string{"claim", "--help"}, "(default 30m, at most 2h)"},
		{[]string{"chat", "new", "--help"}, fmt.Sprintf("at most %d characters", state.MaxTitle)},
		{[]string{"notes", "--help"}, fmt.Sprintf("%d lines at most", state.MaxReaderLines)},
	} {
		var out, errb bytes.Buffer
		code := Main(c.args, Env{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(string) string { return "" }})
		if code != ExitOK {
			t.Fatalf("conch %s: exit %d: %s", strings.Join(c.args, " "), code, errb.String())
		}
		flat := strings.Join(strings.Fields(out.String()), " ")
		if !strings.Contains(flat, c.want) {
			t.Errorf("conch %s does not say %q", strings.Join(c.args, " "), c.want)
		}
		if strings.Contains(flat, "{{") {
			t.Errorf("conch %s prints a placeholder", strings.Join(c.args, " "))
		}
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 8: "8", 500: "500", 4000: "4,000", 4096: "4,096", 1234567: "1,234,567"} {
		if got := count(n); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}
