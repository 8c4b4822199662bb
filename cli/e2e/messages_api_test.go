package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// messagesAPI is a scripted Anthropic Messages API on 127.0.0.1: each
// request of the session's main loop (one that offers tools) gets the next
// turn of its script, streamed as the API streams (message_start,
// content_block_start/delta/stop, message_delta, message_stop); any other
// request (a title, a quota check) gets a short text. It records every
// request it was sent.
type messagesAPI struct {
	t   testing.TB
	srv *http.Server
	url string

	mu    sync.Mutex
	lanes []*lane // the first whose marker the conversation's first message has; the last has none
	reqs  []apiRequest
}

// lane is the script of one conversation: the session's own, or a
// subagent's (told apart by a marker in the conversation's first
// message, the subagent's prompt).
type lane struct {
	marker string
	turns  []apiTurn
	next   int
	// hold, when set, is waited on before the turn of that index
	// (counted from 0) is answered.
	hold map[int]chan struct{}
	// reached is closed when the request for the turn of that index
	// arrives.
	reached map[int]chan struct{}
}

// apiTurn is one scripted answer: blocks of text and tool calls, or an API
// error (status and type) when status is set.
type apiTurn struct {
	blocks []block
	status int
	errTyp string
}

type block struct {
	text  string
	tool  string
	input map[string]any
}

func text(s string) block                          { return block{text: s} }
func tool(name string, input map[string]any) block { return block{tool: name, input: input} }
func says(blocks ...block) apiTurn                 { return apiTurn{blocks: blocks} }
func apiError(status int, typ string) apiTurn      { return apiTurn{status: status, errTyp: typ} }

// apiRequest is one request the fake model was sent.
type apiRequest struct {
	Path     string
	Main     bool // a main-loop request (it offers tools)
	Model    string
	System   string // the system prompt's text, joined
	Messages []apiMessage
	Raw      []byte
}

type apiMessage struct {
	Role    string
	Content []apiContent
}

type apiContent struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	// Content of a tool_result: a string or blocks, kept as its text.
	Result string `json:"-"`
}

// newMessagesAPI starts the server; it stops when the test ends.
func newMessagesAPI(t testing.TB, turns ...apiTurn) *messagesAPI {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &messagesAPI{t: t, url: "http://" + ln.Addr().String(), lanes: []*lane{newLane("", turns)}}
	t.Cleanup(func() { m.dump(t.Name()) })
	m.srv = &http.Server{Handler: m}
	go m.srv.Serve(ln)
	t.Cleanup(func() { m.srv.Close() })
	return m
}

// subagent adds the script of a subagent's conversation: the one whose
// first message (the Agent tool's prompt) has marker.
func (m *messagesAPI) subagent(marker string, turns ...apiTurn) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lanes = append([]*lane{newLane(marker, turns)}, m.lanes...)
}

// conversation adds the script of a session's conversation told apart by
// a marker in its prompt (for two sessions on one fake model).
func (m *messagesAPI) conversation(marker string, turns ...apiTurn) { m.subagent(marker, turns...) }

func newLane(marker string, turns []apiTurn) *lane {
	return &lane{marker: marker, turns: turns, hold: map[int]chan struct{}{}, reached: map[int]chan struct{}{}}
}

func (m *messagesAPI) lane(marker string) *lane {
	for _, l := range m.lanes {
		if l.marker == marker {
			return l
		}
	}
	m.t.Fatalf("fake model: no lane %q", marker)
	return nil
}

// reach waits until the request for turn i of the lane with marker ("" for
// the session's own) has arrived, within a minute.
func (m *messagesAPI) reach(marker string, i int) {
	m.t.Helper()
	m.mu.Lock()
	l := m.lane(marker)
	ch := l.reached[i]
	if ch == nil {
		ch = make(chan struct{})
		l.reached[i] = ch
	}
	m.mu.Unlock()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		m.t.Fatalf("fake model: turn %d of %q never asked for", i, marker)
	}
}

// laneRequests are the requests of the lane with marker, in order.
func (m *messagesAPI) laneRequests(marker string) []apiRequest {
	m.mu.Lock()
	l := m.lane(marker)
	m.mu.Unlock()
	var out []apiRequest
	for _, r := range m.requests() {
		if r.Main && m.laneOf(r) == l {
			out = append(out, r)
		}
	}
	return out
}

// holdTurn makes turn i of the lane with marker ("" for the session's
// own) wait until the returned function is called.
func (m *messagesAPI) holdTurn(marker string, i int) func() {
	ch := make(chan struct{})
	m.mu.Lock()
	m.lane(marker).hold[i] = ch
	m.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

func (m *messagesAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if !strings.HasSuffix(r.URL.Path, "/v1/messages") {
		if strings.HasSuffix(r.URL.Path, "/count_tokens") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"input_tokens":100}`)
			return
		}
		http.NotFound(w, r)
		return
	}
	req := parseRequest(r.URL.Path, body)
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	var tr apiTurn
	var hold chan struct{}
	if req.Main {
		l := m.laneOf(req)
		i := l.next
		if i >= len(l.turns) || l.turns[i].status == 0 {
			l.next++ // an error turn answers every retry too
		}
		hold = l.hold[i]
		if ch := l.reached[i]; ch == nil {
			ch = make(chan struct{})
			close(ch)
			l.reached[i] = ch
		} else {
			select {
			case <-ch: // an error turn's retry
			default:
				close(ch)
			}
		}
		if i < len(l.turns) {
			tr = l.turns[i]
		} else {
			tr = says(text("Done."))
		}
	} else {
		tr = says(text("Scripted title"))
	}
	m.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	if tr.status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(tr.status)
		fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":"scripted error"}}`, tr.errTyp)
		return
	}
	var streamed struct {
		Stream bool `json:"stream"`
	}
	_ = json.Unmarshal(body, &streamed)
	if !streamed.Stream {
		writeWhole(w, req.Model, tr)
		return
	}
	writeStream(w, req.Model, tr, len(m.reqs))
}

// laneOf is the lane of a request's conversation.
func (m *messagesAPI) laneOf(req apiRequest) *lane {
	first := ""
	for _, msg := range req.Messages {
		if msg.Role == "user" {
			first = msg.allText()
			break
		}
	}
	for _, l := range m.lanes {
		if l.marker == "" || strings.Contains(first, l.marker) {
			return l
		}
	}
	return m.lanes[len(m.lanes)-1]
}

// writeStream streams a turn as server-sent events.
func writeStream(w http.ResponseWriter, model string, tr apiTurn, n int) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	f, _ := w.(http.Flusher)
	ev := func(name string, v any) {
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
		if f != nil {
			f.Flush()
		}
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 1},
	}})
	stop := "end_turn"
	for i, b := range tr.blocks {
		if b.tool != "" {
			stop = "tool_use"
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", n, i), "name": b.tool, "input": map[string]any{}}})
			in, _ := json.Marshal(b.input)
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
		} else {
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b.text}})
		}
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	ev("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	ev("message_stop", map[string]any{"type": "message_stop"})
}

// writeWhole answers a request that did not ask for a stream.
func writeWhole(w http.ResponseWriter, model string, tr apiTurn) {
	var content []any
	stop := "end_turn"
	for i, b := range tr.blocks {
		if b.tool != "" {
			stop = "tool_use"
			content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_w_%d", i), "name": b.tool, "input": b.input})
		} else {
			content = append(content, map[string]any{"type": "text", "text": b.text})
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "msg_whole", "type": "message", "role": "assistant", "model": model, "content": content,
		"stop_reason": stop, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5},
	})
}

func parseRequest(path string, body []byte) apiRequest {
	var raw struct {
		Model    string            `json:"model"`
		System   json.RawMessage   `json:"system"`
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(body, &raw)
	req := apiRequest{Path: path, Main: len(raw.Tools) > 0, Model: raw.Model, System: textOf(raw.System), Raw: body}
	for _, msg := range raw.Messages {
		am := apiMessage{Role: msg.Role}
		var s string
		if json.Unmarshal(msg.Content, &s) == nil {
			am.Content = []apiContent{{Type: "text", Text: s}}
		} else {
			var blocks []json.RawMessage
			_ = json.Unmarshal(msg.Content, &blocks)
			for _, rb := range blocks {
				var c apiContent
				_ = json.Unmarshal(rb, &c)
				if c.Type == "tool_result" {
					var tr struct {
						Content json.RawMessage `json:"content"`
					}
					_ = json.Unmarshal(rb, &tr)
					c.Result = textOf(tr.Content)
				}
				am.Content = append(am.Content, c)
			}
		}
		req.Messages = append(req.Messages, am)
	}
	return req
}

// textOf is the text of a string or of a list of text blocks.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

// requests are the requests recorded so far.
func (m *messagesAPI) requests() []apiRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]apiRequest(nil), m.reqs...)
}

// mainRequests are the main loop's requests, in order.
func (m *messagesAPI) mainRequests() []apiRequest {
	var out []apiRequest
	for _, r := range m.requests() {
		if r.Main {
			out = append(out, r)
		}
	}
	return out
}

// lastUserText is all the text sent since the model's last answer: the
// user message (its text blocks and tool results) and the system messages
// Claude Code puts hooks' context and system-reminders in.
func (r apiRequest) lastUserText() string {
	var parts []string
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role != "assistant"; i-- {
		parts = append([]string{r.Messages[i].allText()}, parts...)
	}
	return strings.Join(parts, "\n")
}

// allText is every request's whole conversation as text.
func (r apiRequest) allText() string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(m.allText())
		b.WriteString("\n")
	}
	return b.String()
}

func (m apiMessage) allText() string {
	var parts []string
	for _, c := range m.Content {
		switch c.Type {
		case "text":
			parts = append(parts, c.Text)
		case "tool_result":
			parts = append(parts, c.Result)
		}
	}
	return strings.Join(parts, "\n")
}

// dump writes every request to CONCH_E2E_DUMP/NAME.jsonl, for a person
// reading what the model was sent.
func (m *messagesAPI) dump(name string) {
	dir := os.Getenv("CONCH_E2E_DUMP")
	if dir == "" {
		return
	}
	var b []byte
	for _, r := range m.requests() {
		b = append(b, r.Raw...)
		b = append(b, '\n')
	}
	_ = os.WriteFile(filepath.Join(dir, name+".jsonl"), b, 0o644)
}
