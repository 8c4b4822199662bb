package render

import (
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/state"
)

// A chat on another computer says which, where one here says its folder
// or "same folder" (SPEC §12: a chat's place includes its computer).
func TestChatOnAnotherComputer(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	l := &state.ChatList{Chats: []state.OtherChat{
		{ID: "c_1", Title: "Deploy", State: state.StatusIdle, Folder: "/src/app", Computer: "build-server", LastActive: now},
		{ID: "c_2", Title: "Fix", State: state.StatusIdle, Folder: "/src/app", SameFolder: true, LastActive: now},
	}}
	got := ChatList(l, now, "/home/p", false)
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) < 3 || !strings.Contains(lines[1], "on build-server") || strings.Contains(lines[1], "/src/app") {
		t.Errorf("the other computer's chat:\n%s", got)
	}
	if !strings.Contains(got, "same folder") {
		t.Errorf("this computer's chat:\n%s", got)
	}
}
