package scrub

import (
	"regexp"
	"testing"
	"time"
)

func TestZZVariants(t *testing.T) {
	msg := message()
	for _, x := range []string{
		`(?i)(?:api[_.-]?(?:key|secret|token)|apikey|access[_.-]?(?:key|token)|auth[_.-]?(?:key|token)|client[_.-]?secret|secret[_.-]?(?:key|token)|private[_.-]?key|refresh[_.-]?token|session[_.-]?(?:key|token)|signing[_.-]?key|encryption[_.-]?key|credentials?|token)[\w.-]{0,20}?["']?\s*(?:=|:=|:|=>|\?=)\s*["'\x60]?([A-Za-z0-9_./+=~-]{16,})`,
		`(?i)(?:key|token|secret|credentials?)[\w.-]{0,20}?["']?\s*(?:=|:=|:|=>|\?=)\s*["'\x60]?([A-Za-z0-9_./+=~-]{16,})`,
		`(?i)(?:key|token|secret|credentials?)[\w.-]{0,20}?["']?[ \t]*(?:=|:=|:|=>|\?=)[ \t]*["'\x60]?([A-Za-z0-9_./+=~-]{16,})`,
		`(?i)(?:key|token|secret|credentials?)`,
		`(?:key|token|secret|credentials?)`,
		`(?i)token`,
		`(?i)secret[\w.-]{0,20}?["']?\s*(?:(?:=|:=|=>|\?=)\s*["'\x60]([^"'\x60\r\n]{4,})["'\x60]|(?:=|:=|=>|\?=)\s*([^\s"'\x60,;]{4,})|:\s*["'\x60]([^"'\x60\r\n]{4,})["'\x60])`,
		`\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})\b`,
		`((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})\b`,
	} {
		re := regexp.MustCompile(x)
		st := time.Now()
		for i := 0; i < 50; i++ { re.FindAllStringSubmatchIndex(msg, -1) }
		d1 := time.Since(st) / 50
		st = time.Now()
		for i := 0; i < 50; i++ { re.FindAllStringIndex(msg, -1) }
		d2 := time.Since(st) / 50
		t.Logf("%8v %8v %.60s", d1, d2, x)
	}
}
