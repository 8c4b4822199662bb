package scrub

import (
	"regexp"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

func TestZZLoadSplit(t *testing.T) {
	var fc fileConfig
	st := time.Now()
	for i := 0; i < 20; i++ { fc = fileConfig{}; toml.Decode(rulesTOML, &fc) }
	t.Logf("toml %v", time.Since(st)/20)
	st = time.Now()
	for i := 0; i < 20; i++ { for _, r := range fc.Rules { regexp.MustCompile(r.Regex) } }
	t.Logf("compile %v (%d rules, %d bytes)", time.Since(st)/20, len(fc.Rules), len(rulesTOML))
}
