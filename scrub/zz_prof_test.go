package scrub

import (
	"sort"
	"strings"
	"testing"
	"time"
)

func TestZZProf(t *testing.T) {
	for _, msg := range []string{message(), strings.Repeat("An ordinary reply about chats, locks and tests, with nothing secret in it. ", 54)[:4000]} {
		rs := ruleSet()
		lower := strings.ToLower(msg)
		type c struct{ id string; d time.Duration }
		var cs []c
		for _, r := range rs.list {
			if !r.wanted(lower) { continue }
			st := time.Now()
			for i := 0; i < 20; i++ { r.re.FindAllStringSubmatchIndex(msg, -1) }
			cs = append(cs, c{r.id, time.Since(st) / 20})
		}
		sort.Slice(cs, func(i, j int) bool { return cs[i].d > cs[j].d })
		st := time.Now()
		for i := 0; i < 20; i++ { for _, r := range rs.list { r.wanted(lower) } }
		t.Logf("keyword scan %v", time.Since(st)/20)
		st = time.Now()
		for i := 0; i < 20; i++ { strings.ToLower(msg) }
		t.Logf("lower %v", time.Since(st)/20)
		for _, x := range cs { t.Logf("%-30s %v", x.id, x.d) }
	}
}
