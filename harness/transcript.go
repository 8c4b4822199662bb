package harness

// Reading the session files that harnesses write themselves: Claude Code's
// transcript (~/.claude/projects/…/SESSION.jsonl) and Codex's rollout
// (~/.codex/sessions/…/rollout-….jsonl). Both are JSON Lines, appended to
// as the session runs. conch reads them for two things only: the last
// thing the assistant said (for a Stop whose payload lacks it), and the
// rows a person typed directly (for adopted sessions). Any row it does not
// understand is skipped, never an error: the formats change between
// versions, and a session file is not conch's to judge.

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
)

// tailBytes is how much of a session file's end LastAssistantText reads:
// the last turn is near the end, and a transcript can run to megabytes.
const tailBytes = 1 << 20

// LastAssistantText is the last text the assistant wrote in the session
// file at path of the harness named, read from its last MiB. "" when there
// is none (or the file cannot be read: the file can lag the session, so
// this is best-effort), or the harness keeps no file conch reads.
func LastAssistantText(harness, path string) string {
	ad := Of(harness)
	if ad == nil || ad.LastWords == nil {
		return ""
	}
	return ad.LastWords(rows(fileTail(path)))
}

// rows are a session file's lines.
func rows(data []byte) [][]byte { return bytes.Split(data, []byte{'\n'}) }

// fileTail is the whole lines of a session file's last MiB, nil when it
// cannot be read.
func fileTail(path string) []byte {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	start := st.Size() - tailBytes
	if start < 0 {
		start = 0
	}
	data, err := io.ReadAll(io.NewSectionReader(f, start, st.Size()-start))
	if err != nil {
		return nil
	}
	if start > 0 {
		// The first line is cut: drop it.
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil
		}
		data = data[i+1:]
	}
	return data
}

// claudeLastWords walks a Claude Code transcript's rows from the end and
// returns the text of the last assistant message that has any. One API
// message can be split over several rows sharing message.id: the text of
// the last message that has some is gathered.
func claudeLastWords(lines [][]byte) string {
	var parts []string
	msgID := ""
	for i := len(lines) - 1; i >= 0; i-- {
		var row claudeRow
		if json.Unmarshal(lines[i], &row) != nil {
			continue
		}
		if row.Type == "user" && len(parts) > 0 && row.humanText() != "" {
			break
		}
		if row.Type != "assistant" || row.IsSidechain {
			continue
		}
		text := row.Message.text(false)
		if msgID != "" && row.Message.ID != msgID {
			break
		}
		if text == "" {
			continue
		}
		if msgID == "" {
			msgID = row.Message.ID
			if msgID == "" {
				return text
			}
		}
		parts = append([]string{text}, parts...)
	}
	return strings.Join(parts, "\n")
}

// codexLastWords is the last assistant text of a Codex rollout's rows.
func codexLastWords(lines [][]byte) string {
	for i := len(lines) - 1; i >= 0; i-- {
		var row codexRow
		if json.Unmarshal(lines[i], &row) != nil {
			continue
		}
		if t := row.assistantText(); t != "" {
			return t
		}
	}
	return ""
}

// humanTexts are the texts a person typed, row by row, in whole lines of
// a session file of the harness named: tool results, meta rows (a local
// command's caveat, a skill's injection), compaction summaries, the
// harness's own injected context and every row it does not understand are
// skipped (the adapter's Typed reads a row).
func humanTexts(harness string, data []byte) []string {
	ad := Of(harness)
	if ad == nil || ad.Typed == nil {
		return nil
	}
	var out []string
	for _, line := range rows(data) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if t := ad.Typed(line); strings.TrimSpace(t) != "" {
			out = append(out, t)
		}
	}
	return out
}

// claudeTyped is what a person typed in one row of a Claude Code
// transcript ("" for none).
func claudeTyped(line []byte) string {
	var row claudeRow
	if json.Unmarshal(line, &row) != nil {
		return ""
	}
	return row.humanText()
}

// codexTyped is what a person typed in one row of a Codex rollout.
func codexTyped(line []byte) string {
	var row codexRow
	if json.Unmarshal(line, &row) != nil {
		return ""
	}
	return row.humanText()
}

// claudeRow is one row of a Claude Code transcript: the fields conch reads.
type claudeRow struct {
	Type                      string        `json:"type"`
	IsSidechain               bool          `json:"isSidechain"`
	IsMeta                    bool          `json:"isMeta"`
	IsCompactSummary          bool          `json:"isCompactSummary"`
	IsVisibleInTranscriptOnly bool          `json:"isVisibleInTranscriptOnly"`
	ToolUseResult             any           `json:"toolUseResult"`
	Message                   claudeMessage `json:"message"`
}

type claudeMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// text is the message's text: a string content, or its text blocks
// joined. A user message holding a tool result has no text of a person's
// (human says whether that is asked for).
func (m claudeMessage) text(human bool) string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if b.Text != "" {
				parts = append(parts, b.Text)
			}
		case "tool_result":
			if human {
				return "" // a tool's output, not a person's words
			}
		}
	}
	return strings.Join(parts, "\n")
}

// humanText is what a person typed in this row, or "".
func (r claudeRow) humanText() string {
	if r.Type != "user" || r.IsSidechain || r.IsMeta || r.IsCompactSummary || r.IsVisibleInTranscriptOnly || r.ToolUseResult != nil {
		return ""
	}
	if r.Message.Role != "" && r.Message.Role != "user" {
		return ""
	}
	t := r.Message.text(true)
	trimmed := strings.TrimSpace(t)
	for _, p := range claudeNotTyped {
		if strings.HasPrefix(trimmed, p) {
			return ""
		}
	}
	return t
}

// claudeNotTyped are the starts of user rows the harness writes itself:
// a local command's output, and the marker of a reply the person
// interrupted (the interruption is not a message).
var claudeNotTyped = []string{
	"<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>",
	"[Request interrupted by user",
}

// codexRow is one row of a Codex rollout: {"timestamp","type","payload"}.
type codexRow struct {
	Type    string `json:"type"`
	Payload struct {
		Type    string         `json:"type"`
		Role    string         `json:"role"`
		Message string         `json:"message"`
		Content []codexContent `json:"content"`
		TurnID  string         `json:"turn_id"`
		// Item is what an event_msg item_completed completed (0.169):
		// a UserMessage, an AgentMessage, a WebSearch, …
		Item struct {
			Type    string         `json:"type"`
			Content []codexContent `json:"content"`
			Query   string         `json:"query"`
		} `json:"item"`
	} `json:"payload"`
}

type codexContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// itemText is the text of an item_completed row's item of type typ.
func (r codexRow) itemText(typ string) string {
	if r.Type != "event_msg" || r.Payload.Type != "item_completed" || r.Payload.Item.Type != typ {
		return ""
	}
	var parts []string
	for _, c := range r.Payload.Item.Content {
		if c.Text != "" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// humanText is the person's prompt: Codex writes it as an event_msg, an
// item_completed UserMessage since 0.169 (a user_message before). The
// role-user response_item messages are not read: they repeat it, and they
// also carry the harness's own injected context (<environment_context>,
// AGENTS.md).
func (r codexRow) humanText() string {
	if r.Type == "event_msg" && r.Payload.Type == "user_message" {
		return r.Payload.Message
	}
	return r.itemText("UserMessage")
}

func (r codexRow) assistantText() string {
	switch {
	case r.Type == "event_msg" && r.Payload.Type == "agent_message":
		return r.Payload.Message
	case r.Type == "event_msg" && r.Payload.Type == "item_completed":
		return r.itemText("AgentMessage")
	case r.Type == "response_item" && r.Payload.Type == "message" && r.Payload.Role == "assistant":
		var parts []string
		for _, c := range r.Payload.Content {
			if c.Type == "output_text" && c.Text != "" {
				parts = append(parts, c.Text)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// WebSearches are the searches the model made on the web in a turn of a
// Codex session, read from the rollout at path (its last MiB): Codex runs
// hosted web search itself and fires no hook for it, so the rollout is
// where conch learns of it. Best-effort, as LastAssistantText.
func WebSearches(path, turn string) []string {
	data := fileTail(path)
	var out []string
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if !bytes.Contains(line, []byte(`"WebSearch"`)) {
			continue // most rows: not worth decoding
		}
		var row codexRow
		if json.Unmarshal(line, &row) != nil || row.Type != "event_msg" || row.Payload.Type != "item_completed" || row.Payload.Item.Type != "WebSearch" {
			continue
		}
		if turn != "" && row.Payload.TurnID != turn {
			continue
		}
		out = append(out, row.Payload.Item.Query)
	}
	return out
}
