package scrub

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/conch-sh/conch/state/fold"
)

// compiledBeforeTests records how many rules were compiled before the
// first test ran, after New and a Scrub of text with no keyword: importing
// the package, making a Scrubber and scrubbing ordinary words must compile
// nothing.
var compiledBeforeTests int

func TestMain(m *testing.M) {
	sc := New([]string{"some-env-value"})
	for _, s := range []string{"Fix the login", "src/auth/handler.go", "Chat number 11 of the bench", "make the login tests green"} {
		if sc.Scrub(s) != s {
			panic("Scrub changed " + s)
		}
	}
	compiledBeforeTests = compiledCount()
	os.Exit(m.Run())
}

// compiledCount is how many of the builtin rules are compiled.
func compiledCount() int {
	n := 0
	for i := range builtin.compiled {
		if builtin.compiled[i].re != nil {
			n++
		}
	}
	return n
}

func TestImportDoesNoWork(t *testing.T) {
	if compiledBeforeTests != 0 {
		t.Fatalf("%d rules were compiled for text that holds no keyword", compiledBeforeTests)
	}
}

func TestRulesLoad(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("rule set: %v", err)
	}
	if len(builtin.specs) < 60 {
		t.Fatalf("only %d rules", len(builtin.specs))
	}
	seen := map[string]bool{}
	for _, r := range builtin.specs {
		if seen[r.id] {
			t.Errorf("rule id %s twice", r.id)
		}
		seen[r.id] = true
		for _, k := range r.keywords {
			if k != strings.ToLower(k) || k == "" {
				t.Errorf("rule %s: keyword %q must be lower case and non-empty", r.id, k)
			}
		}
	}
}

// gen returns n characters of alphabet, chosen by a fixed pseudo-random
// sequence, so the samples look like real keys and the tests stay stable.
func gen(alphabet string, n int, seed uint32) string {
	var b strings.Builder
	x := seed*2654435761 + 1
	for range n {
		x = x*1664525 + 1013904223
		b.WriteByte(alphabet[int(x>>16)%len(alphabet)])
	}
	return b.String()
}

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	alnum  = upper + lower + digits
	hex    = "0123456789abcdef"
	b64    = alnum + "+/"
	b64url = alnum + "_-"
)

var pemBody = strings.Join([]string{gen(b64, 64, 1), gen(b64, 64, 2), gen(b64, 64, 3), gen(b64, 20, 4) + "=="}, "\n")

// samples: for each rule, a text it must catch and the secret in it that
// must not survive Scrub.
var samples = []struct{ id, text, secret string }{
	{"aws-access-key-id", "AKIA" + gen(upper+digits, 16, 1), ""},
	{"aws-secret-access-key", "aws_secret_access_key = " + gen(b64, 40, 2), gen(b64, 40, 2)},
	{"aws-session-token", "AWS_SESSION_TOKEN=" + gen(b64, 300, 3), gen(b64, 300, 3)},
	{"gcp-api-key", "AIza" + gen(b64url, 35, 4), ""},
	{"gcp-oauth-client-secret", "GOCSPX-" + gen(b64url, 28, 5), ""},
	{"gcp-oauth-access-token", "ya29." + gen(b64url, 60, 6), ""},
	{"gcp-oauth-refresh-token", "1//0" + gen(b64url, 60, 7), ""},
	{"azure-ad-client-secret", "secret: " + gen(alnum, 3, 8) + "8Q~" + gen(alnum, 34, 8), gen(alnum, 3, 8) + "8Q~" + gen(alnum, 34, 8)},
	{"azure-storage-account-key", "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=" + gen(b64, 86, 9) + "==;EndpointSuffix=core.windows.net", gen(b64, 86, 9)},
	{"azure-sas-signature", "https://x.blob.core.windows.net/c/f?sv=2022-11-02&sig=" + gen(alnum, 40, 10) + "%3D", gen(alnum, 40, 10)},
	{"alibaba-access-key-id", "LTAI" + gen(alnum, 20, 11), ""},
	{"digitalocean-token", "dop_v1_" + gen(hex, 64, 12), ""},
	{"heroku-api-key", "HRKU-AA" + gen(b64url, 58, 13), ""},
	{"heroku-api-key-uuid", "HEROKU_API_KEY=01234567-89ab-cdef-0123-456789abcdef", "01234567-89ab-cdef-0123-456789abcdef"},
	{"flyio-token", "fo1_" + gen(b64url, 43, 14), ""},
	{"cloudflare-origin-ca-key", "v1.0-" + gen(hex, 24, 15) + "-" + gen(hex, 146, 15), ""},
	{"supabase-token", "sbp_" + gen(hex, 40, 16), ""},
	{"planetscale-token", "pscale_tkn_" + gen(alnum, 43, 17), ""},
	{"terraform-cloud-token", gen(alnum, 14, 18) + ".atlasv1." + gen(b64url, 67, 18), ""},
	{"vault-token", "hvs." + gen(b64url, 95, 19), ""},
	{"doppler-token", "dp.pt." + gen(alnum, 43, 20), ""},
	{"pulumi-token", "pul-" + gen(hex, 40, 21), ""},
	{"databricks-token", "dapi" + gen(hex, 32, 22), ""},
	{"openshift-user-token", "sha256~" + gen(b64url, 43, 23), ""},
	{"docker-hub-token", "dckr_pat_" + gen(b64url, 27, 24), ""},
	{"yandex-api-key", "AQVN" + gen(b64url, 36, 25), ""},
	{"github-token", "ghp_" + gen(alnum, 36, 26), ""},
	{"github-fine-grained-pat", "github_pat_" + gen(alnum, 22, 27) + "_" + gen(alnum, 59, 27), ""},
	{"gitlab-token", "glpat-" + gen(b64url, 20, 28), ""},
	{"gitlab-runner-registration-token", "GR1348941" + gen(b64url, 20, 29), ""},
	{"npm-token", "npm_" + gen(alnum, 36, 30), ""},
	{"pypi-token", "pypi-AgEIcHlwaS5vcmc" + gen(b64url, 70, 31), ""},
	{"rubygems-token", "rubygems_" + gen(hex, 48, 32), ""},
	{"clojars-token", "CLOJARS_" + gen(lower+digits, 60, 33), ""},
	{"artifactory-token", "AKCp" + gen(alnum, 69, 34), ""},
	{"sourcegraph-token", "sgp_" + gen(hex, 40, 35), ""},
	{"octopus-deploy-api-key", "API-" + gen(upper+digits, 26, 36), ""},
	{"harness-token", "pat." + gen(b64url, 22, 37) + "." + gen(alnum, 24, 37) + "." + gen(alnum, 20, 37), ""},
	{"intra42-client-secret", "s-s4t2ud-" + gen(hex, 64, 38), ""},
	{"sk-api-key", "sk-proj-" + gen(b64url, 48, 39), ""},
	{"huggingface-token", "hf_" + gen(upper+lower, 34, 40), ""},
	{"huggingface-org-token", "api_org_" + gen(upper+lower, 34, 41), ""},
	{"groq-api-key", "gsk_" + gen(alnum, 52, 42), ""},
	{"xai-api-key", "xai-" + gen(alnum, 80, 43), ""},
	{"replicate-token", "r8_" + gen(alnum, 37, 44), ""},
	{"perplexity-api-key", "pplx-" + gen(alnum, 48, 45), ""},
	{"slack-token", "xoxb-1234567890-1234567890123-" + gen(alnum, 24, 46), ""},
	{"slack-app-token", "xapp-1-A0123BCDEFG-1234567890123-" + gen(hex, 64, 47), ""},
	{"slack-webhook-url", "https://hooks.slack.com/services/T00000000/B00000000/" + gen(alnum, 24, 48), ""},
	{"discord-webhook-url", "https://discord.com/api/webhooks/123456789012345678/" + gen(b64url, 68, 49), ""},
	{"teams-webhook-url", "https://contoso.webhook.office.com/webhookb2/01234567-89ab-cdef-0123-456789abcdef@01234567-89ab-cdef-0123-456789abcdef/IncomingWebhook/" + gen(hex, 32, 50) + "/01234567-89ab-cdef-0123-456789abcdef", ""},
	{"telegram-bot-token", "123456789:AA" + gen(b64url, 33, 51), ""},
	{"sendgrid-api-key", "SG." + gen(b64url, 22, 52) + "." + gen(b64url, 43, 52), ""},
	{"mailgun-api-key", "key-" + gen(hex, 32, 53), ""},
	{"mailchimp-api-key", gen(hex, 32, 54) + "-us12", ""},
	{"brevo-api-key", "xkeysib-" + gen(hex, 64, 55) + "-" + gen(alnum, 16, 55), ""},
	{"twilio-api-key", "SK" + gen(hex, 32, 56), ""},
	{"postman-api-key", "PMAK-" + gen(hex, 24, 57) + "-" + gen(hex, 34, 57), ""},
	{"stripe-key", "sk_live_" + gen(alnum, 24, 58), ""},
	{"stripe-webhook-secret", "whsec_" + gen(alnum, 32, 59), ""},
	{"square-token", "sq0atp-" + gen(b64url, 22, 60), ""},
	{"shopify-token", "shpat_" + gen(hex, 32, 61), ""},
	{"flutterwave-secret-key", "FLWSECK_TEST-" + gen(hex, 32, 62) + "-X", ""},
	{"shippo-token", "shippo_live_" + gen(hex, 40, 63), ""},
	{"easypost-api-key", "EZAK" + gen(alnum, 54, 64), ""},
	{"duffel-token", "duffel_test_" + gen(b64url, 43, 65), ""},
	{"atlassian-api-token", "ATATT3" + gen(b64url, 186, 66), ""},
	{"linear-api-key", "lin_api_" + gen(alnum, 40, 67), ""},
	{"notion-token", "ntn_" + gen(digits, 11, 68) + gen(alnum, 35, 68), ""},
	{"dropbox-token", "sl." + gen(b64url, 135, 69), ""},
	{"facebook-access-token", "EAAC" + gen(alnum, 100, 70), ""},
	{"twitter-bearer-token", "AAAAAAAAAAAAAAAAAAAAA" + gen(alnum, 60, 71), ""},
	{"mapbox-secret-token", "sk.eyJ" + gen(b64url, 80, 72), ""},
	{"grafana-token", "glsa_" + gen(alnum, 32, 73) + "_" + gen(hex, 8, 73), ""},
	{"sentry-token", "sntryu_" + gen(hex, 64, 74), ""},
	{"new-relic-key", "NRAK-" + gen(upper+digits, 27, 75), ""},
	{"dynatrace-token", "dt0c01." + gen(alnum, 24, 76) + "." + gen(alnum, 64, 76), ""},
	{"onepassword-token", "ops_eyJ" + gen(b64, 260, 77), ""},
	{"age-secret-key", "AGE-SECRET-KEY-1" + gen("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, 78), ""},
	{"adobe-client-secret", "p8e-" + gen(alnum, 32, 79), ""},
	{"maxmind-license-key", gen(alnum, 6, 80) + "_" + gen(alnum, 29, 80) + "_mmk", ""},
	{"misc-prefixed-token", "pnu_" + gen(alnum, 36, 81), ""},
	{"private-key", "-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "\n-----END RSA PRIVATE KEY-----", ""},
	{"putty-private-key", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 1\n" + gen(b64, 40, 82) + "\nPrivate-Lines: 1\n" + gen(b64, 44, 83) + "\nPrivate-MAC: " + gen(hex, 64, 83) + "\n", gen(b64, 44, 83)},
	{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", ""},
	{"authorization-header", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="},
	{"bearer-token", "curl -H 'X-Thing: Bearer " + gen(alnum, 32, 84) + "'", gen(alnum, 32, 84)},
	{"url-credentials", "postgres://admin:s3cr3tP4ss@db.example.com:5432/app", "s3cr3tP4ss"},
	{"password-pair", "password=hunter2xyz", "hunter2xyz"},
	{"secret-pair", `secret = "tr0ub4dor&3"`, "tr0ub4dor&3"},
	{"generic-credential", "api_key: " + gen(hex, 32, 85), gen(hex, 32, 85)},
}

// findWith returns the secrets one rule finds in text.
func findWith(t *testing.T, id, text string) []string {
	t.Helper()
	for _, r := range builtin.specs {
		if r.id == id {
			one := newSet([]ruleSpec{r}, builtin.global)
			var out []string
			for _, sp := range one.find(text, nil) {
				out = append(out, text[sp.a:sp.b])
			}
			return out
		}
	}
	t.Fatalf("no rule %s", id)
	return nil
}

func TestEveryRuleHasASample(t *testing.T) {
	have := map[string]bool{}
	for _, s := range samples {
		have[s.id] = true
	}
	for _, r := range builtin.specs {
		if !have[r.id] {
			t.Errorf("rule %s has no sample in the tests", r.id)
		}
	}
}

func TestRuleSamples(t *testing.T) {
	sc := New(nil)
	for _, s := range samples {
		secret := s.secret
		if secret == "" {
			secret = s.text
		}
		for _, ctx := range []string{"%s", "Here it is: %s and more.", "KEY=\"%s\"\n", "`%s`", "line one\n%s\nline three"} {
			text := fmt.Sprintf(ctx, s.text)
			if got := findWith(t, s.id, text); len(got) == 0 {
				t.Errorf("rule %s finds nothing in %q", s.id, text)
				continue
			}
			out := sc.Scrub(text)
			if strings.Contains(out, secret) {
				t.Errorf("rule %s: secret survives in %q", s.id, out)
			}
			if !strings.Contains(out, Removed) {
				t.Errorf("rule %s: no %q in %q", s.id, Removed, out)
			}
			if again := sc.Scrub(out); again != out {
				t.Errorf("rule %s: scrubbing twice changes %q to %q", s.id, out, again)
			}
		}
	}
}

func TestPlanted(t *testing.T) {
	env := "my-very-own-env-secret-value"
	sc := New([]string{env, "", "abc"})
	secrets := []string{
		"AKIA" + gen(upper+digits, 16, 100),
		"ghp_" + gen(alnum, 36, 101),
		"xoxb-2345678901-2345678901234-" + gen(alnum, 24, 102),
		"sk-" + gen(alnum, 48, 103),
		"sk-ant-api03-" + gen(b64url, 93, 104) + "AA",
		"sk_live_" + gen(alnum, 24, 105),
		pemBody,
		"eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJjb25jaCIsInN1YiI6ImMxIn0.c2lnbmF0dXJlLXBhcnQtaGVyZQ",
		"hunter2xyz",
		env,
	}
	text := strings.Join([]string{
		"Here is what I found while debugging the deploy:",
		"export AWS_ACCESS_KEY_ID=" + secrets[0],
		"The GitHub token is " + secrets[1] + ", and the Slack bot uses " + secrets[2] + ".",
		`OPENAI_API_KEY="` + secrets[3] + `"`,
		"anthropic: " + secrets[4],
		"stripe.api_key = '" + secrets[5] + "'",
		"-----BEGIN OPENSSH PRIVATE KEY-----\n" + secrets[6] + "\n-----END OPENSSH PRIVATE KEY-----",
		"curl -H \"Authorization: Bearer " + secrets[7] + "\" https://api.example.com",
		"db: password=" + secrets[8],
		"and the configured value " + env + " appears twice: " + env,
		"abc stays: the value is too short to be a secret.",
	}, "\n")
	out := sc.Scrub(text)
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("secret %q survives in:\n%s", s, out)
		}
	}
	if !strings.Contains(out, "abc stays") {
		t.Errorf("a short env value was taken out:\n%s", out)
	}
	for _, keep := range []string{"Here is what I found", "export AWS_ACCESS_KEY_ID=", "db: password=" + Removed, "https://api.example.com"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%q lost from:\n%s", keep, out)
		}
	}
}

// TestTruncatedKey: a private key cut before its END line (a message cut
// short, a pasted fragment) still goes.
func TestTruncatedKey(t *testing.T) {
	text := "here:\n-----BEGIN PRIVATE KEY-----\n" + pemBody
	out := New(nil).Scrub(text)
	if strings.Contains(out, pemBody[:30]) || out != "here:\n"+Removed {
		t.Errorf("truncated key: %q", out)
	}
}

func TestEnvValues(t *testing.T) {
	for _, tc := range []struct {
		values     []string
		text, want string
	}{
		{[]string{"s3cr3t-value"}, "a s3cr3t-value b s3cr3t-value", "a " + Removed + " b " + Removed},
		{[]string{"abc", "", "  "}, "abc abc", "abc abc"},
		{[]string{"long-secret", "long-secret-longer"}, "x long-secret-longer y", "x " + Removed + " y"},
		{[]string{"overlap-1234", "1234-tail"}, "overlap-1234-tail", Removed},
		{[]string{"with-newline-value\n"}, "got with-newline-value here", "got " + Removed + " here"},
		{[]string{"Ünïcödé-sécret"}, "«Ünïcödé-sécret»", "«" + Removed + "»"},
	} {
		if got := New(tc.values).Scrub(tc.text); got != tc.want {
			t.Errorf("New(%q).Scrub(%q) = %q, want %q", tc.values, tc.text, got, tc.want)
		}
	}
	var nilScrubber *Scrubber
	if got := nilScrubber.Scrub("ghp_" + gen(alnum, 36, 7)); got != Removed {
		t.Errorf("nil Scrubber: %q", got)
	}
}

func TestProseUntouched(t *testing.T) {
	sc := New([]string{"not-in-the-text"})
	for _, s := range []string{
		"",
		"The password must be at least twelve characters long.",
		"Rotate the API key and update the secret in the vault.",
		"I pushed the fix to main; the token refresh logic now retries twice.",
		"Use conch chat message c_1 to answer. [Conch: that is conch's own line]",
		"Set OPENAI_API_KEY in your environment before running the tests.",
		`if err := os.Setenv("GITHUB_TOKEN", token); err != nil {`,
		`password := os.Getenv("DB_PASSWORD")`,
		`token = get_token()`,
		`api_key = config.get("api_key")`,
		`secret: ${{ secrets.DEPLOY_KEY }}`,
		`password: "${DB_PASSWORD}"`,
		"password: see the vault",
		"The secret: it's a trade-off between speed and safety.",
		"See https://github.com/conch-sh/conch/issues/12 for details.",
		"ssh://git@github.com/conch-sh/conch.git and git@github.com:conch-sh/conch.git",
		"The key-value store is keyed by chat id; keys are short.",
		"commit 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a fixed the flaky lock test",
		"chat 01234567-89ab-cdef-0123-456789abcdef is idle",
		"Ask Skyler about the task-list and the AKIA prefix of AWS keys.",
		"Bearer tokens go in the Authorization header.",
		"-----BEGIN PUBLIC KEY----- is not a secret",
		"The credentials file lives at ~/.aws/credentials.",
		"access_token_url: https://oauth.example.com/token",
		"api_key_file = /home/user/.config/conch/api-key.json",
		"tokens: 3 valid, 2 expired",
		"日本語の文章とemoji 👩‍💻 も そのまま",
		strings.Repeat("An ordinary sentence about tests, locks and chats. ", 60),
	} {
		if got := sc.Scrub(s); got != s {
			t.Errorf("Scrub changed prose:\n in: %q\nout: %q", s, got)
		}
	}
}

// TestGitleaksFormat: the loader reads gitleaks' own format, with its
// allowlists, stopwords, secret groups and file-only rules.
func TestGitleaksFormat(t *testing.T) {
	rs, err := loadSet(`
title = "gitleaks config"
[allowlist]
description = "global allow lists"
paths = ['''gitleaks\.toml''']
regexes = ['''^EXAMPLE''']
stopwords = ["notreal"]

[[rules]]
id = "demo-token"
description = "a demo token"
regex = '''(?i)demo[_-]?token\s*=\s*([a-z0-9]{12,})(?:\s|$)'''
secretGroup = 1
entropy = 2.5
keywords = ["demo"]
[[rules.allowlists]]
regexes = ['''^0+$''']
[[rules.allowlists]]
condition = "AND"
paths = ['''\.md$''']
regexes = ['''.*''']

[[rules]]
id = "file-only"
description = "matches file names"
path = '''(?i)\.p12$'''

[[rules]]
id = "broken"
description = "not RE2"
regex = '''(?<=x)y'''
keywords = ["x"]
`)
	if err == nil || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("a rule Go cannot compile should be named in the error, got %v", err)
	}
	if len(rs.specs) != 1 || rs.specs[0].id != "demo-token" {
		t.Fatalf("rules loaded: %d", len(rs.specs))
	}
	find := func(text string) []string {
		var out []string
		for _, sp := range rs.find(text, nil) {
			out = append(out, text[sp.a:sp.b])
		}
		return out
	}
	for text, want := range map[string]string{
		"demo_token = a1b2c3d4e5f6g7":  "a1b2c3d4e5f6g7",
		"DEMO-TOKEN=zz9y8x7w6v5u4t":    "zz9y8x7w6v5u4t",
		"demo_token = 000000000000000": "", // rule allowlist
		"demo_token = aaaaaaaaaaaaaaa": "", // entropy
		"demo_token = EXAMPLE12345678": "", // global regex
		"demo_token = abcnotreal12345": "", // global stopword
		"no keyword = a1b2c3d4e5f6g7":  "",
	} {
		got := find(text)
		if (want == "" && len(got) != 0) || (want != "" && (len(got) != 1 || got[0] != want)) {
			t.Errorf("find(%q) = %q, want %q", text, got, want)
		}
	}
	if bad, err := loadSet("[[rules]\nid="); err == nil || len(bad.specs) != 0 {
		t.Errorf("a broken file should give an error and no rules")
	}
}

// TestConcurrent: one Scrubber shared by goroutines
// (run with -race).
func TestConcurrent(t *testing.T) {
	sc := New([]string{"shared-env-value"})
	msg := message()
	want := sc.Scrub(msg)
	done := make(chan string)
	for range 8 {
		go func() { done <- sc.Scrub(msg) }()
	}
	for range 8 {
		if got := <-done; got != want {
			t.Error("concurrent Scrub gave a different result")
		}
	}
}

func TestReplaceMergesOverlaps(t *testing.T) {
	text := "0123456789"
	got := replace(text, []span{{5, 8}, {1, 3}, {2, 4}, {7, 9}, {9, 10}})
	if want := "0" + Removed + "4" + Removed + Removed; got != want {
		t.Errorf("replace = %q, want %q", got, want)
	}
}

func TestEntropy(t *testing.T) {
	for s, want := range map[string]float64{"": 0, "aaaa": 0, "ab": 1, "abcd": 2} {
		if got := entropy(s); got != want {
			t.Errorf("entropy(%q) = %v, want %v", s, got, want)
		}
	}
}

// shapes are key shapes the fuzz target plants: a fixed start, then n
// characters of alphabet chosen by the fuzzer.
var shapes = []struct {
	start, alphabet string
	n               int
	end             string
}{
	{"AKIA", upper + digits, 16, ""},
	{"ASIA", upper + digits, 16, ""},
	{"ghp_", alnum, 36, ""},
	{"gho_", alnum, 40, ""},
	{"github_pat_", alnum + "_", 82, ""},
	{"glpat-", b64url, 20, ""},
	{"xoxb-123456789012-", alnum, 24, ""},
	{"xoxp-", digits + "-", 40, ""},
	{"sk-", alnum, 48, ""},
	{"sk-proj-", b64url, 100, ""},
	{"sk-ant-api03-", b64url, 93, "AA"},
	{"sk_live_", alnum, 24, ""},
	{"rk_test_", alnum, 99, ""},
	{"AIza", b64url, 35, ""},
	{"hf_", upper + lower, 34, ""},
	{"npm_", alnum, 36, ""},
	{"hvs.", b64url, 90, ""},
	{"dop_v1_", hex, 64, ""},
	{"SG.", b64url, 22, ""}, // completed below with a second part
	{"eyJ", b64url, 30, ""}, // a JWT, completed below
	{"pem", b64, 200, ""},   // a PEM block, completed below
	{"password=", upper + digits + "!@#^&*+-_/=~?", 16, ""},
	{"env", upper + digits + "_-+/=", 24, ""},
}

// plant builds the key of shape k from the fuzzer's bytes; secret is the
// part that must not survive.
func plant(k int, raw []byte) (key, secret string, env []string) {
	sh := shapes[k%len(shapes)]
	fill := func(n, salt int) string {
		var b strings.Builder
		for i := range n {
			c := byte(salt)
			if len(raw) > 0 {
				c += raw[(i+salt)%len(raw)]
			}
			b.WriteByte(sh.alphabet[int(c)%len(sh.alphabet)])
		}
		return b.String()
	}
	body := fill(sh.n, 0)
	switch sh.start {
	case "SG.":
		key = "SG." + body + "." + fill(43, 3)
	case "eyJ":
		key = "eyJ" + body + ".eyJ" + fill(30, 1) + "." + fill(43, 2)
	case "pem":
		var lines []string
		for i := 0; i < len(body); i += 64 {
			lines = append(lines, body[i:min(i+64, len(body))])
		}
		secret = strings.Join(lines, "\n")
		key = "-----BEGIN EC PRIVATE KEY-----\n" + secret + "\n-----END EC PRIVATE KEY-----"
		return key, secret, nil
	case "password=":
		secret = body[:len(body)-1] + "7" // a digit, as a password has
		return "password=" + secret, secret, nil
	case "env":
		return body, body, []string{body}
	default:
		key = sh.start + body + sh.end
	}
	return key, key, nil
}

func FuzzScrub(f *testing.F) {
	for k := range shapes {
		f.Add("Here is the key you asked for:", uint8(k), []byte("seed bytes"), "Use it wisely.")
	}
	f.Add("", uint8(0), []byte{}, "")
	f.Add("password: ", uint8(21), []byte{0xff, 0}, "\n[Conch: x]")
	f.Fuzz(func(t *testing.T, prefix string, kind uint8, raw []byte, suffix string) {
		key, secret, env := plant(int(kind), raw)
		if strings.Contains(prefix, secret) || strings.Contains(suffix, secret) {
			t.Skip("the surrounding text holds the secret itself")
		}
		text := prefix + " " + key + " " + suffix
		out := New(env).Scrub(text)
		if strings.Contains(out, secret) {
			t.Fatalf("secret %q survives:\n in: %q\nout: %q", secret, text, out)
		}
	})
}

// disguise writes key as a chat might to get it past a scrubber: with
// invisible format characters between its runes and some of its letters in
// full-width forms, as the bytes of how say.
func disguise(key string, how []byte) string {
	unseen := []rune{0x200b, 0x200c, 0x200d, 0x2060, 0x00ad, 0xfeff, 0x180e}
	var b strings.Builder
	for i, r := range key {
		h := byte(0)
		if len(how) > 0 {
			h = how[i%len(how)]
		}
		if h&1 != 0 && '!' <= r && r <= '~' {
			r += 0xfee0 // the full-width form
		}
		b.WriteRune(r)
		if h&2 != 0 {
			b.WriteRune(unseen[int(h>>2)%len(unseen)])
		}
	}
	return b.String()
}

// TestScrubFolded: a token split by a zero-width space, or in full-width
// letters, is still a token (rule 15 of issue 12).
func TestScrubFolded(t *testing.T) {
	tok := "ghp_" + gen(alnum, 36, 7)
	for _, text := range []string{
		"token: " + tok[:10] + "\u200b" + tok[10:],
		"token: " + disguise(tok, []byte{1}),
		"token: " + disguise(tok, []byte{3, 2, 0, 6}),
	} {
		out := New(nil).Scrub(text)
		if !strings.Contains(out, Removed) || strings.Contains(fold.String(out), tok) {
			t.Errorf("Scrub(%q) = %q: the token survives", text, out)
		}
	}
	env := "an-env-secret-value"
	if out := New([]string{env}).TakeOutValues("v=" + disguise(env, []byte{2, 3})); strings.Contains(fold.String(out), env) {
		t.Errorf("TakeOutValues kept a disguised value: %q", out)
	}
	if s := "plain words, ünïcode, 日本語"; New([]string{env}).Scrub(s) != s {
		t.Error("Scrub changed text with no secret")
	}
}

// FuzzScrubFolded: however a planted secret is disguised with format
// characters and compatibility forms, the fold of what Scrub returns does
// not hold it.
func FuzzScrubFolded(f *testing.F) {
	for k := range shapes {
		f.Add("Here is the key:", uint8(k), []byte("seed bytes"), []byte{1, 2, 3, 6, 11}, "done")
	}
	f.Add("", uint8(0), []byte{}, []byte{0xff}, "")
	f.Fuzz(func(t *testing.T, prefix string, kind uint8, raw, how []byte, suffix string) {
		key, secret, env := plant(int(kind), raw)
		folded := fold.String(prefix + suffix)
		if strings.Contains(folded, secret) {
			t.Skip("the surrounding text holds the secret itself")
		}
		text := prefix + " " + disguise(key, how) + " " + suffix
		out := New(env).Scrub(text)
		if strings.Contains(fold.String(out), secret) {
			t.Fatalf("secret %q survives:\n in: %q\nout: %q", secret, text, out)
		}
	})
}

// message is a 4,000-character message of the kind chats send each other:
// prose, a code excerpt, words like key and token that wake the rules, and
// two secrets.
func message() string {
	parts := []string{
		"I looked at the flaky lock test. The failure comes from two processes taking the lock within the same millisecond; ",
		"the second one reads the token file before the first has written it. Here is the relevant part of state/home.go:\n\n",
		"func (h *Home) Update(fn func(tx *Tx) error) error {\n\tunlock, err := h.lock.Lock()\n\tif err != nil {\n\t\treturn fmt.Errorf(\"lock %s: %w\", h.dir, err)\n\t}\n\tdefer unlock()\n\treturn fn(&Tx{home: h})\n}\n\n",
		"The API key in the config is read once per command, so the secret never leaves the process. password handling is the same. ",
		"Keys are rotated weekly; the access token expires after an hour. ",
		"export GITHUB_TOKEN=ghp_" + gen(alnum, 36, 200) + "\n",
		"and the deploy uses AKIA" + gen(upper+digits, 16, 201) + " for S3.\n",
	}
	var b strings.Builder
	for b.Len() < 4000 {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	return b.String()[:4000]
}

func BenchmarkScrub(b *testing.B) {
	msg := message()
	sc := New([]string{"an-env-secret-value", "another-one-here"})
	sc.Scrub(msg) // compile outside the timing
	b.SetBytes(int64(len(msg)))
	b.ResetTimer()
	for b.Loop() {
		sc.Scrub(msg)
	}
}

func BenchmarkScrubProse(b *testing.B) {
	msg := strings.Repeat("An ordinary reply about chats, locks and tests, with nothing secret in it. ", 54)[:4000]
	sc := New([]string{"an-env-secret-value"})
	sc.Scrub(msg)
	b.SetBytes(int64(len(msg)))
	b.ResetTimer()
	for b.Loop() {
		sc.Scrub(msg)
	}
}

// BenchmarkCompileAll is what Check costs: every rule compiled, as the
// first Scrub once cost before the keyword prefilter.
func BenchmarkCompileAll(b *testing.B) {
	for b.Loop() {
		rs := newSet(builtin.specs, builtin.global)
		if err := rs.check(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkField is the cost of scrubbing one field that crosses to
// another chat (a title, a goal, a file name) in a fresh process: nothing
// compiled before. Without a candidate secret, no rule is compiled; with
// one, only the rules its keywords wake.
func BenchmarkField(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"title", "Fix the login redirect after the session expires"},
		{"file", "internal/handlers/auth/session_refresh.go"},
		{"goal", "step 12 of the plan: make the login tests green"},
		{"keyword", "make the tests in c_2 pass"},                            // "pass" is a keyword, the rule needs = or :
		{"keyword-needs", "step 12 of the plan: make the tests in c_2 pass"}, // both: one rule compiled
		{"candidate", "deploy with ghp_" + gen(alnum, 36, 9)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			sc := New(nil)
			for b.Loop() {
				// As a fresh process has the set: nothing compiled.
				rs := &set{specs: builtin.specs, global: builtin.global, keywords: builtin.keywords,
					keywordAt: builtin.keywordAt, compiled: make([]compiled, len(builtin.specs))}
				rs.find(bc.text, sc.valueSpans(bc.text, nil))
			}
		})
		b.Run(bc.name+"-warm", func(b *testing.B) {
			sc := New(nil)
			sc.Scrub(bc.text)
			for b.Loop() {
				sc.Scrub(bc.text)
			}
		})
	}
}

// FuzzPrefilter: the one pass over a text wakes exactly the rules whose
// keywords occur in its lower case, as a search of each keyword would.
func FuzzPrefilter(f *testing.F) {
	f.Add("Fix the login")
	f.Add("export GITHUB_TOKEN=ghp_abc and AKIA1234")
	f.Add("PRIVATE KEY and Bearer and sk-")
	f.Add("\u212aey with a Kelvin sign, İstanbul, ＡＫＩＡ")
	f.Add("xoxb-1-2 sig=x hooks.slack.com")
	f.Fuzz(func(t *testing.T, text string) {
		var got [maxRules]bool
		builtin.wanted(text, &got)
		lower := strings.ToLower(text)
		for i, sp := range builtin.specs {
			want := len(sp.keywords) == 0
			for _, k := range sp.keywords {
				want = want || strings.Contains(lower, k)
			}
			if got[i] != want {
				t.Fatalf("rule %s: wanted %v, its keywords say %v, in %q", sp.id, got[i], want, text)
			}
		}
	})
}

// FuzzNeeds: a rule's needs are sound: a text that holds none of them
// holds no match of the rule, so skipping the rule loses nothing.
func FuzzNeeds(f *testing.F) {
	for _, s := range samples {
		f.Add(s.text)
	}
	f.Add("password: hunter2xyz")
	f.Fuzz(func(t *testing.T, text string) {
		for i, sp := range builtin.specs {
			if sp.needs == "" || strings.ContainsAny(text, sp.needs) {
				continue
			}
			if r := builtin.rule(i); r != nil && r.re.MatchString(text) {
				t.Fatalf("rule %s matches %q, which holds none of %q", sp.id, text, sp.needs)
			}
		}
	})
}
