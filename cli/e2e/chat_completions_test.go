package e2e

// A scripted fake of an OpenAI-compatible chat completions API (POST
// /v1/chat/completions, streamed as server-sent events), as Qwen Code
// speaks it: the test decides, request by request, what the model says and
// which tools it calls, and every request is kept.

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

// ccRequest is one request the fake chat model received.
type ccRequest struct {
	Path string
	Body map[string]any
	Raw  string
}

// main says whether the request is one of the session's own turns (it
// offers tools); the harness's side requests (a title, a suggestion of
// what the person may type next) offer none.
func (r *ccRequest) main() bool {
	tools, _ := r.Body["tools"].([]any)
	return len(tools) > 0
}

// text is every message of the request, as one string.
func (r *ccRequest) text() string {
	b, _ := json.Marshal(r.Body["messages"])
	return string(b)
}

// resultOf is what the tool call callID came back with.
func (r *ccRequest) resultOf(callID string) (string, bool) {
	msgs, _ := r.Body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "tool" && mm["tool_call_id"] == callID {
			b, _ := json.Marshal(mm["content"])
			return string(b), true
		}
	}
	return "", false
}

// cturn is one answer: text, then tool calls. A nil cturn hangs.
type cturn []map[string]any

// csay is the assistant's text.
func csay(text string) map[string]any { return map[string]any{"text": text} }

// ccall is a call of one of the harness's tools.
func ccall(id, name string, args map[string]any) map[string]any {
	b, _ := json.Marshal(args)
	return map[string]any{"id": id, "name": name, "arguments": string(b)}
}

// chatAPI is the server.
type chatAPI struct {
	t      testing.TB
	url    string // http://127.0.0.1:PORT/v1, for OPENAI_BASE_URL
	mu     sync.Mutex
	reqs   []*ccRequest
	answer func(r *ccRequest, n int) cturn
	mains  int
	stop   chan struct{}
}

func newChatAPI(t testing.TB, answer func(r *ccRequest, n int) cturn) *chatAPI {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &chatAPI{t: t, answer: answer, stop: make(chan struct{})}
	m.url = "http://" + ln.Addr().String() + "/v1"
	srv := &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() {
		close(m.stop)
		srv.Close()
	})
	return m
}

func (m *chatAPI) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r := &ccRequest{Path: req.URL.Path, Raw: string(body)}
	_ = json.Unmarshal(body, &r.Body)
	m.mu.Lock()
	m.reqs = append(m.reqs, r)
	m.mu.Unlock()
	switch {
	case req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/models"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"fake-model","object":"model"}]}`)
		return
	case req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/chat/completions"):
		http.NotFound(w, req)
		return
	}
	var tr cturn
	if r.main() {
		m.mu.Lock()
		n := m.mains
		m.mains++
		m.mu.Unlock()
		tr = m.answer(r, n)
	} else {
		tr = cturn{csay(`{"reasoning": "The reply is complete.", "next_speaker": "user"}`)}
	}
	id := fmt.Sprintf("chatcmpl-%d", time.Now().UnixNano())
	text, calls := "", []any{}
	for _, p := range tr {
		if s, ok := p["text"].(string); ok {
			text += s
			continue
		}
		calls = append(calls, map[string]any{
			"index": len(calls), "id": p["id"], "type": "function",
			"function": map[string]any{"name": p["name"], "arguments": p["arguments"]},
		})
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if stream, _ := r.Body["stream"].(bool); !stream {
		msg := map[string]any{"role": "assistant", "content": text}
		if len(calls) > 0 {
			msg["tool_calls"] = calls
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	send := func(delta map[string]any, finish any, withUsage bool) {
		c := map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
		if withUsage {
			c["usage"] = usage
		}
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	send(map[string]any{"role": "assistant", "content": ""}, nil, false)
	if tr == nil {
		select {
		case <-req.Context().Done():
		case <-m.stop:
		}
		return
	}
	if text != "" {
		send(map[string]any{"content": text}, nil, false)
	}
	if len(calls) > 0 {
		send(map[string]any{"tool_calls": calls}, nil, false)
	}
	send(map[string]any{}, finish, true)
	io.WriteString(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

func (m *chatAPI) requests() []*ccRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*ccRequest(nil), m.reqs...)
}

// mainRequests is every request of the session's own turns.
func (m *chatAPI) mainRequests() []*ccRequest {
	var out []*ccRequest
	for _, r := range m.requests() {
		if r.main() {
			out = append(out, r)
		}
	}
	return out
}
