package cli

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// A help text says a bound by its constant's name, {{ChainMessages}}, and
// never by its number: help puts the number in as it prints, so a bound is
// changed in one place (issue 26). TestHelpSaysBoundsFromConstants holds
// every text to it.

// helpNumber is one bound the help texts say: its constant's name and
// what help prints for it.
type helpNumber struct{ name, says string }

// helpNumbers are the bounds the help texts say.
func helpNumbers() []helpNumber {
	return []helpNumber{
		{"ChainMessages", count(state.ChainMessages)},
		{"ChainStarted", count(state.ChainStarted)},
		{"ChainPair", count(state.ChainPair)},
		{"MaxWaiting", count(state.MaxWaiting)},
		{"WindowPair", count(state.WindowPair)},
		{"RepeatMinutes", count(int(state.RepeatWindow / time.Minute))},
		{"MaxMessageChars", count(state.MaxMessageChars)},
		{"MaxQuotedMessage", count(render.MaxQuotedMessage)},
		{"ReplyTail", count(state.ReplyTail)},
		{"MaxTitle", count(state.MaxTitle)},
		{"MaxReaderLines", count(state.MaxReaderLines)},
		{"MaxTaintSources", count(state.MaxTaintSources)},
		{"MaxTaintSource", count(state.MaxTaintSource)},
		{"MaxFolder", count(state.MaxFolder)},
		{"MaxGoal", count(state.MaxGoal)},
		{"MaxResult", count(state.MaxResult)},
		{"MaxAppName", count(state.MaxAppName)},
		{"ClaimDefault", render.Span(state.ClaimDefault)},
		{"ClaimLongest", render.Span(state.ClaimLongest)},
		{"MaxClaims", count(state.MaxClaims)},
		{"ListMax", count(state.ListMax)},
		{"RecentDays", count(int(state.RecentWindow / (24 * time.Hour)))},
		{"EchoWindow", count(state.EchoWindow)},
		{"MissedLooks", count(state.MissedLooks)},
		{"WakeGrace", render.Span(state.WakeGrace)},
	}
}

// count is a number as help writes it: 8, 500, 4,096.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// helpNumbersIn puts each bound's number (and each list of harnesses,
// helpLists) in a text; built once help
// prints (a package-level call would run at every start-up).
var (
	helpNumbersOnce sync.Once
	helpNumbersIn   *strings.Replacer
)

// sayNumbers is text with its bounds' numbers in.
func sayNumbers(text string) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	helpNumbersOnce.Do(func() {
		var pairs []string
		for _, n := range slices.Concat(helpNumbers(), helpLists()) {
			pairs = append(pairs, "{{"+n.name+"}}", n.says)
		}
		helpNumbersIn = strings.NewReplacer(pairs...)
	})
	return helpNumbersIn.Replace(text)
}

// withNumbers has root's help print every text with its bounds' numbers
// in: the command's own words, its subcommands' and its flags'. Only help
// pays for it; a command that is not asked for help never reads a text.
func withNumbers(root *cobra.Command) {
	help := root.HelpFunc()
	root.SetHelpFunc(func(cmd *cobra.Command, args []string) {
		numberCommand(cmd)
		for _, sub := range cmd.Commands() {
			sub.Short = sayNumbers(sub.Short)
		}
		help(cmd, args)
	})
}

// numberCommand puts the numbers in one command's texts and flags.
func numberCommand(cmd *cobra.Command) {
	cmd.Short, cmd.Long, cmd.Example = sayNumbers(cmd.Short), sayNumbers(cmd.Long), sayNumbers(cmd.Example)
	number := func(f *pflag.Flag) { f.Usage = sayNumbers(f.Usage) }
	cmd.Flags().VisitAll(number)
	cmd.InheritedFlags().VisitAll(number)
}
