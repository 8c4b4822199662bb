package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/conch-sh/conch/state"
)

// Clock is a time of day as the person reads it: 10:30, in local time.
func Clock(t time.Time) string { return t.Local().Format("15:04") }

// ClaimedLine is the reader's line about a claim in the listener's folder.
func ClaimedLine(l state.ReaderLine) string {
	return fmt.Sprintf("%s has claimed %s until %s: keep off it, or message it.", Named(l.Title, l.Chat), Clean(l.File), Clock(l.Until))
}

// why is a claim's reason, cleaned, as a clause: " (why: …)".
func why(reason string) string {
	if r := Clean(reason); r != "" {
		return " (" + r + ")"
	}
	return ""
}

// ClaimHeld is the refusal of a claim another chat holds.
func ClaimHeld(path string, l state.LiveClaim) string {
	return fmt.Sprintf("%s is claimed by %s until %s%s: message it (conch chat message %s …) or claim another file",
		Clean(path), Named(l.Title, l.Chat), Clock(l.Until), why(l.Reason), l.Chat)
}

// GuardReason is what the harness tells the model, and the person, when
// the guard stops (or asks about, or notes) a tool call.
func GuardReason(v *state.Verdict) string {
	switch {
	case v.Kind == "worktree" && v.Claim != nil:
		return fmt.Sprintf("%s has claimed %s in another worktree of this repository (%s) until %s: your branches will meet at the merge.",
			Named(v.ChatTitle, v.Chat), Clean(v.File), Clean(v.Worktree), Clock(v.Claim.Until))
	case v.Kind == "worktree":
		return fmt.Sprintf("%s is changing %s in another worktree of this repository (%s): your branches will meet at the merge.",
			Named(v.ChatTitle, v.Chat), Clean(v.File), Clean(v.Worktree))
	case !v.Named:
		// A chat that is not the person's hears nothing of the person's
		// chats: no file, no time, no chat.
		return "conch's guard holds this tool call for the person: do something else meanwhile."
	case v.Kind == "claim":
		return fmt.Sprintf("%s has claimed %s until %s%s: keep off it. To ask for it: conch chat message %s \"…\"; or change other files meanwhile.",
			Named(v.Claim.Title, v.Claim.Chat), Clean(v.File), Clock(v.Claim.Until), why(v.Claim.Reason), v.Claim.Chat)
	}
	return fmt.Sprintf("%s is working in this %s: %s would move the checkout under it. Wait for it (conch wait chat %s), ask it (conch chat message %s \"…\"), or work in a worktree of your own.",
		Named(v.ChatTitle, v.Chat), guardWhere(v), v.Move, v.Chat, v.Chat)
}

// guardWhere is what the chat shares with the one a move would hurt.
func guardWhere(v *state.Verdict) string {
	if v.Tree {
		return "work tree"
	}
	return "folder"
}

// ClaimNotes are the worktree notes on claims just made, one line each.
func ClaimNotes(notes []state.Verdict) string {
	var b strings.Builder
	for i := range notes {
		b.WriteString("Note: " + GuardReason(&notes[i]) + "\n")
	}
	return b.String()
}

// GuardStep is what `conch step` says of a claimed file it steps onto: it
// refuses nothing (the harness's own hook does), but says so.
func GuardStep(v *state.Verdict) string { return "conch: " + GuardReason(v) }

// ClaimJSON is one claim in conch's JSON (conch help json).
type ClaimJSON struct {
	Chat    string    `json:"chat"`
	Title   string    `json:"title"`
	Path    string    `json:"path"`
	Glob    bool      `json:"glob"`
	Reason  string    `json:"reason"`
	Since   time.Time `json:"since"`
	Until   time.Time `json:"until"`
	Mine    bool      `json:"mine"`
	Outside bool      `json:"outside"`
}

// ClaimsJSON is the claims as JSON, for the chat asking (me: "" for the
// person).
func ClaimsJSON(claims []state.LiveClaim, me string) []ClaimJSON {
	out := []ClaimJSON{}
	for _, l := range claims {
		out = append(out, ClaimJSON{Chat: l.Chat, Title: Clean(l.Title), Path: l.Pattern, Glob: l.Glob,
			Reason: Clean(l.Reason), Since: l.Since.UTC(), Until: l.Until.UTC(), Mine: l.Chat == me, Outside: l.Outside})
	}
	return out
}

// Claims is `conch claims` in words: one line a claim, paths relative to
// dir when inside it.
func Claims(claims []state.LiveClaim, me, dir, home string) string {
	if len(claims) == 0 {
		return "No claims.\n"
	}
	var b strings.Builder
	for _, l := range claims {
		who := Named(l.Title, l.Chat)
		if l.Chat == me {
			who = "this chat"
		}
		parts := []string{ClaimPath(l.Pattern, dir, home), "until " + Clock(l.Until)}
		if r := Clean(l.Reason); r != "" {
			parts = append(parts, r)
		}
		if l.Outside {
			parts = append(parts, "untrusted: a note, never a denial")
		}
		fmt.Fprintf(&b, "- %s: %s\n", who, strings.Join(parts, " · "))
	}
	return b.String()
}

// ClaimPath is a claimed path as a person reads it: relative to dir when
// inside it, else with ~ for their home; cleaned.
func ClaimPath(p, dir, home string) string {
	if dir != "" && strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/") {
		return Clean(p[len(strings.TrimSuffix(dir, "/"))+1:])
	}
	return Clean(Folder(p, home))
}

// Claimed is what `conch claim` says.
func Claimed(made []state.Claim, dir, home string) string {
	var b strings.Builder
	for _, c := range made {
		fmt.Fprintf(&b, "Claimed %s until %s.\n", ClaimPath(c.Pattern, dir, home), Clock(c.Until))
	}
	return b.String()
}

// Released is what `conch release` says.
func Released(gone []state.Claim, dir, home string) string {
	if len(gone) == 0 {
		return "No claim to release.\n"
	}
	var b strings.Builder
	for _, c := range gone {
		fmt.Fprintf(&b, "Released %s.\n", ClaimPath(c.Pattern, dir, home))
	}
	return b.String()
}

// GuardAskElsewhere is an ask for a harness whose pre-tool hook cannot ask
// the person (Codex 0.169): the tool is denied, and the model told to ask.
func GuardAskElsewhere(reason string) string {
	return reason + " The person is to decide: ask them in your answer, and go on only once they say so (they can also set [guard] in conch's config.toml)."
}

// SessionConflict is the warning of a command whose harness session names
// a chat more the person's than the one CONCH_CHAT names: CONCH_CHAT
// stands.
func SessionConflict(session, named string) string {
	return fmt.Sprintf("this shell's harness session is chat %s, and CONCH_CHAT names chat %s, which is less yours: acting as %s (a session variable never raises trust)", session, named, named)
}
