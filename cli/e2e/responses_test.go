package e2e

// A scripted fake of OpenAI's Responses API (POST /v1/responses, answered
// as a server-sent event stream), as Codex speaks it: the test decides,
// request by request, what the model says and which tools it calls, and
// every request is kept so the test can check what reached the model.

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

// modelRequest is one request the fake model received.
type modelRequest struct {
	Path string
	Body map[string]any
	Raw  string
}

// text is everything of the request's input the model reads, as one
// string: the prompts, the hooks' added context, the tools' outputs.
func (r *modelRequest) text() string {
	b, _ := json.Marshal(r.Body["input"])
	return string(b)
}

// instructions are the request's system instructions.
func (r *modelRequest) instructions() string {
	s, _ := r.Body["instructions"].(string)
	return s
}

// outputOf is the output the tool call callID came back with, "" when
// the request carries none.
func (r *modelRequest) outputOf(callID string) (string, bool) {
	items, _ := r.Body["input"].([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		if m["call_id"] == callID && strings.HasSuffix(fmt.Sprint(m["type"]), "_output") {
			b, _ := json.Marshal(m["output"])
			return string(b), true
		}
	}
	return "", false
}

// turn is what the model answers to one request: output items, in order.
// A nil turn hangs: it opens the stream and sends nothing more until the
// client goes away (a model still thinking, for interrupts).
type turn []map[string]any

// say is an assistant message.
func say(text string) map[string]any {
	return map[string]any{
		"type": "message", "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}},
	}
}

// shell is a call of Codex's shell tool (exec_command in 0.169).
func shell(callID, command string) map[string]any {
	args, _ := json.Marshal(map[string]any{"cmd": command, "yield_time_ms": 10000})
	return map[string]any{"type": "function_call", "name": "exec_command", "arguments": string(args), "call_id": callID, "status": "completed"}
}

// webSearch is a hosted web search the model made (OpenAI runs it; Codex
// only sees it happened).
func webSearch(query string) map[string]any {
	return map[string]any{
		"type": "web_search_call", "status": "completed",
		"action": map[string]any{"type": "search", "query": query},
	}
}

// httpError is a turn the server refuses with an HTTP error status.
func httpError(status int) turn {
	return turn{{"type": "http_error", "status": status}}
}

// fakeModel is the server.
type fakeModel struct {
	t    testing.TB
	url  string // http://127.0.0.1:PORT/v1
	mu   sync.Mutex
	reqs []*modelRequest
	// answer picks the turn for a request; n is how many main requests
	// (not the harness's own hidden ones) came before it.
	answer func(r *modelRequest, n int) turn
	mains  int
	// arrived is signalled at each request, for tests that wait on one.
	arrived chan *modelRequest
	// whole: response.completed carries the response's output items too,
	// as OpenAI sends it (Copilot CLI reads them there; Codex from each
	// output_item.done).
	whole bool
	hangs sync.WaitGroup
	stop  chan struct{}
}

// newFakeModel starts a fake model on 127.0.0.1 that answers with answer.
func newFakeModel(t testing.TB, answer func(r *modelRequest, n int) turn) *fakeModel {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &fakeModel{t: t, answer: answer, arrived: make(chan *modelRequest, 64), stop: make(chan struct{})}
	m.url = "http://" + ln.Addr().String() + "/v1"
	srv := &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() {
		close(m.stop)
		srv.Close()
	})
	return m
}

// hidden says whether a request is one the harness makes for itself (a
// thread's title), not the session's model turn.
func hidden(r *modelRequest) bool {
	return strings.Contains(r.text(), "Generate a concise, single-line task title")
}

func (m *fakeModel) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r := &modelRequest{Path: req.URL.Path, Raw: string(body)}
	_ = json.Unmarshal(body, &r.Body)
	m.mu.Lock()
	m.reqs = append(m.reqs, r)
	m.mu.Unlock()
	select {
	case m.arrived <- r:
	default:
	}
	switch {
	case req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/models"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[],"models":[]}`)
		return
	case req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/responses"):
		http.NotFound(w, req)
		return
	}
	var tr turn
	if hidden(r) {
		tr = turn{say("A title")}
	} else {
		m.mu.Lock()
		n := m.mains
		m.mains++
		m.mu.Unlock()
		tr = m.answer(r, n)
	}
	if len(tr) == 1 && tr[0]["type"] == "http_error" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(tr[0]["status"].(int))
		io.WriteString(w, `{"error":{"message":"refused by the fake model","type":"invalid_request_error","code":"invalid"}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	id := fmt.Sprintf("resp_%d", time.Now().UnixNano())
	send := func(event string, data map[string]any) {
		data["type"] = event
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		if fl != nil {
			fl.Flush()
		}
	}
	send("response.created", map[string]any{"response": map[string]any{"id": id, "status": "in_progress"}})
	if tr == nil {
		select {
		case <-req.Context().Done():
		case <-m.stop:
		}
		return
	}
	for i, item := range tr {
		if _, ok := item["id"]; !ok {
			item["id"] = fmt.Sprintf("item_%s_%d", id, i)
		}
		send("response.output_item.added", map[string]any{"output_index": i, "item": item})
		if item["type"] == "message" {
			text := item["content"].([]any)[0].(map[string]any)["text"]
			send("response.output_text.delta", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "delta": text})
		}
		send("response.output_item.done", map[string]any{"output_index": i, "item": item})
	}
	done := map[string]any{
		"id": id, "status": "completed",
		"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15},
	}
	if m.whole {
		done["output"] = []map[string]any(tr)
	}
	send("response.completed", map[string]any{"response": done})
}

// requests is every request so far.
func (m *fakeModel) requests() []*modelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*modelRequest(nil), m.reqs...)
}

// mainRequests is every request of the session's own turns.
func (m *fakeModel) mainRequests() []*modelRequest {
	var out []*modelRequest
	for _, r := range m.requests() {
		if strings.HasSuffix(r.Path, "/responses") && !hidden(r) {
			out = append(out, r)
		}
	}
	return out
}

// waitRequest waits for a request that ok accepts.
func (m *fakeModel) waitRequest(t testing.TB, what string, ok func(r *modelRequest) bool) *modelRequest {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		for _, r := range m.requests() {
			if ok(r) {
				return r
			}
		}
		select {
		case <-m.arrived:
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatalf("the fake model never received %s", what)
		}
	}
}
