package harness

import "testing"

func TestConchFamily(t *testing.T) {
	for command, want := range map[string]string{
		"conch chats list":                              "talk",
		"/usr/local/bin/conch chat message c_2 'hi'":    "talk",
		"CONCH_CHAT=c_1 conch status c_2 --since 3":     "talk",
		"cd /repo && conch wait chat c_2 --detach":      "wait",
		"conch chats list; conch wait chat c_3":         "wait",
		"conch chats list && go test ./...":             "",
		"go test ./... | conch chat message c_2 -":      "",
		"conchology --help":                             "",
		"echo conch":                                    "",
		"":                                              "",
		"git commit -m 'conch chats list'":              "",
		"(conch chats list)":                            "talk",
		"conch chat message c_2 'done' \n make install": "",
	} {
		if got := conchFamily(command); got != want {
			t.Errorf("conchFamily(%q) = %q, want %q", command, got, want)
		}
	}
}

func TestHarnessPrompt(t *testing.T) {
	for prompt, want := range map[string]bool{
		"<task-notification>\n<task-id>a1</task-id>": true,
		"<teammate-message teammate_id=\"x\">hi":     true,
		"<cross-session-message from=\"s\">":         true,
		"<agent-message>":                            true,
		"Fix the parser":                             false,
		" <task-notification>":                       false,
		"<command-name>/review</command-name>":       false,
	} {
		if got := harnessPrompt(prompt); got != want {
			t.Errorf("harnessPrompt(%q) = %v, want %v", prompt, got, want)
		}
	}
}
