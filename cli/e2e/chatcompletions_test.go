package e2e

// A scripted fake of the OpenAI-compatible chat completions API (POST
// /v1/chat/completions, streamed as server-sent events), as OpenCode (the
// AI SDK's openai-compatible provider) and Pi (its openai-completions API)
// speak it. Each conversation has a script, told apart by a marker in its
// first user message: each of its requests that offers tools gets the next
// turn; a request that offers none (a session's title) gets a short text.
// Every request is kept, so a test can check what reached the model. A
// GET of /page serves a small web page (for a harness's web fetch).

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// chatTurn is one scripted answer: text, then tool calls; or an API error
// when status is set. do, when set, runs first, as the request arrives
// (what another chat does while this one is at that point).
type chatTurn struct {
	text   string
	calls  []chatCall
	status int
	do     func()
}

type chatCall struct {
	name string
	args map[string]any
}

func reply(text string, calls ...chatCall) chatTurn { return chatTurn{text: text, calls: calls} }
func calls(c ...chatCall) chatTurn                  { return chatTurn{calls: c} }
func call(name string, args map[string]any) chatCall {
	return chatCall{name: name, args: args}
}
func failWith(status int) chatTurn { return chatTurn{status: status} }

// chatRequest is one request the fake model received.
type chatRequest struct {
	Path  string
	Main  bool // it offers tools
	Body  map[string]any
	Raw   string
	Lane  string
	Index int // its turn's index in the lane
}

// messages are the request's messages.
func (r *chatRequest) messages() []map[string]any {
	list, _ := r.Body["messages"].([]any)
	var out []map[string]any
	for _, m := range list {
		if mm, ok := m.(map[string]any); ok {
			out = append(out, mm)
		}
	}
	return out
}

// contentText is a message's content as text (a string, or text parts).
func contentText(m map[string]any) string {
	switch c := m["content"].(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, p := range c {
			if pm, ok := p.(map[string]any); ok {
				if s, ok := pm["text"].(string); ok {
					b.WriteString(s)
					b.WriteString("\n")
				}
			}
		}
		return b.String()
	}
	return ""
}

// firstUser is the conversation's first user message.
func (r *chatRequest) firstUser() string {
	for _, m := range r.messages() {
		if m["role"] == "user" {
			return contentText(m)
		}
	}
	return ""
}

// userText is every user message's text, joined: the prompt and what the
// harness's plugin added to it.
func (r *chatRequest) userText() string {
	var b strings.Builder
	for _, m := range r.messages() {
		if m["role"] == "user" {
			b.WriteString(contentText(m))
		}
	}
	return b.String()
}

// toolResult is the text of the tool message answering call id.
func (r *chatRequest) toolResult(id string) (string, bool) {
	for _, m := range r.messages() {
		if m["role"] == "tool" && m["tool_call_id"] == id {
			return contentText(m), true
		}
	}
	return "", false
}

// lastToolResult is the text of the request's last tool message.
func (r *chatRequest) lastToolResult() string {
	out := ""
	for _, m := range r.messages() {
		if m["role"] == "tool" {
			out = contentText(m)
		}
	}
	return out
}

// all is the whole request.
func (r *chatRequest) all() string { return r.Raw }

type chatLane struct {
	marker string
	turns  []chatTurn
	next   int
}

// chatModel is the server.
type chatModel struct {
	t     testing.TB
	url   string // http://127.0.0.1:PORT/v1
	page  string // a web page it serves
	mu    sync.Mutex
	lanes []*chatLane
	reqs  []*chatRequest
	calls int
}

// newChatModel starts the fake model on 127.0.0.1; it stops when the test
// ends.
func newChatModel(t testing.TB) *chatModel {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &chatModel{t: t}
	m.url = "http://" + ln.Addr().String() + "/v1"
	m.page = "http://" + ln.Addr().String() + "/page"
	srv := &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return m
}

// script sets the turns of the conversation whose first user message has
// marker ("" for any other).
func (m *chatModel) script(marker string, turns ...chatTurn) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lanes = append(m.lanes, &chatLane{marker: marker, turns: turns})
}

func (m *chatModel) laneFor(first string) *chatLane {
	// The marker that comes first: what a plugin adds after the prompt
	// (the notes) may name another conversation's.
	var found, fallback *chatLane
	at := -1
	for _, l := range m.lanes {
		if l.marker == "" {
			fallback = l
		} else if i := strings.Index(first, l.marker); i >= 0 && (at < 0 || i < at) {
			found, at = l, i
		}
	}
	if found != nil {
		return found
	}
	return fallback
}

// requests are the main requests of the lane with marker.
func (m *chatModel) requests(marker string) []*chatRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*chatRequest
	for _, r := range m.reqs {
		if r.Main && r.Lane == marker {
			out = append(out, r)
		}
	}
	return out
}

func (m *chatModel) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	if req.Method == http.MethodGet {
		switch {
		case strings.HasSuffix(req.URL.Path, "/page"):
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><body><h1>The fake page</h1><p>Nothing to see.</p></body></html>")
		case strings.HasSuffix(req.URL.Path, "/models"):
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"object":"list","data":[{"id":"fake-model","object":"model"}]}`)
		default:
			http.NotFound(w, req)
		}
		return
	}
	if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/chat/completions") {
		http.NotFound(w, req)
		return
	}
	r := &chatRequest{Path: req.URL.Path, Raw: string(body)}
	_ = json.Unmarshal(body, &r.Body)
	tools, _ := r.Body["tools"].([]any)
	r.Main = len(tools) > 0
	tr := chatTurn{text: "A title"}
	m.mu.Lock()
	if r.Main {
		l := m.laneFor(r.firstUser())
		switch {
		case l == nil:
			tr = chatTurn{text: "(no script)"}
		case l.next < len(l.turns):
			r.Lane, r.Index = l.marker, l.next
			tr = l.turns[l.next]
			l.next++
		default:
			r.Lane, r.Index = l.marker, l.next
			l.next++
			tr = chatTurn{text: "(the script has ended)"}
		}
	}
	m.reqs = append(m.reqs, r)
	m.calls++
	n := m.calls
	m.mu.Unlock()
	if tr.do != nil {
		tr.do()
	}
	if tr.status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(tr.status)
		fmt.Fprintf(w, `{"error":{"message":"the fake model refused the request (%d)","type":"invalid_request_error","code":null}}`, tr.status)
		return
	}
	stream, _ := r.Body["stream"].(bool)
	model, _ := r.Body["model"].(string)
	if !stream {
		msg := map[string]any{"role": "assistant", "content": tr.text}
		out := map[string]any{
			"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	send := func(choices []any, extra map[string]any) {
		chunk := map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model, "choices": choices}
		for k, v := range extra {
			chunk[k] = v
		}
		b, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	delta := func(d map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": finish}}
	}
	send(delta(map[string]any{"role": "assistant", "content": ""}, nil), nil)
	if tr.text != "" {
		send(delta(map[string]any{"content": tr.text}, nil), nil)
	}
	for i, c := range tr.calls {
		args, _ := json.Marshal(c.args)
		send(delta(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": fmt.Sprintf("call_%d_%d", n, i), "type": "function",
			"function": map[string]any{"name": c.name, "arguments": string(args)},
		}}}, nil), nil)
	}
	finish := "stop"
	if len(tr.calls) > 0 {
		finish = "tool_calls"
	}
	send(delta(map[string]any{}, finish), nil)
	send([]any{}, map[string]any{"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	io.WriteString(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}
