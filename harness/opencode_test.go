package harness

import (
	"slices"
	"testing"
)

// TestOpenCodePrompt: a prompt into an open OpenCode session is its
// server's prompt_async for the session, the prompt one text part, with
// the basic auth its server's password sets (user "opencode" unless named).
func TestOpenCodePrompt(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	r, err := opencode.PromptInto("ses/1", "wake up", getenv)
	if err != nil {
		t.Fatal(err)
	}
	if r.Method != "POST" || r.Path != "/session/ses%2F1/prompt_async" || string(r.Body) != `{"parts":[{"text":"wake up","type":"text"}]}` || r.Header != nil {
		t.Errorf("no password: %+v %s", r, r.Body)
	}
	env["OPENCODE_SERVER_PASSWORD"] = "pw"
	if r, _ = opencode.PromptInto("s", "x", getenv); !slices.Equal(r.Header, []string{"Authorization: Basic b3BlbmNvZGU6cHc="}) {
		t.Errorf("with a password: %q", r.Header)
	}
	env["OPENCODE_SERVER_USERNAME"] = "me"
	if r, _ = opencode.PromptInto("s", "x", getenv); !slices.Equal(r.Header, []string{"Authorization: Basic bWU6cHc="}) {
		t.Errorf("with a user: %q", r.Header)
	}
	if pi.PromptInto != nil {
		t.Error("Pi takes a prompt into an open session")
	}
}
