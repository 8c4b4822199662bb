package e2e

// A scripted fake of Google's Gemini API (generateContent and
// streamGenerateContent?alt=sse, under /v1beta/models/MODEL:METHOD), as
// Gemini CLI speaks it: the test decides, request by request, what the
// model says and which functions it calls, and every request is kept so
// the test can check what reached the model.

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

// geminiRequest is one request the fake Gemini model received.
type geminiRequest struct {
	Path   string
	Method string // generateContent, streamGenerateContent, countTokens, …
	Body   map[string]any
	Raw    string
}

// main says whether the request is one of the session's own turns: the
// agent loop offers its tools; the harness's side requests (the next
// speaker check, a loop check, a title) offer none.
func (r *geminiRequest) main() bool {
	tools, _ := r.Body["tools"].([]any)
	return r.Method == "streamGenerateContent" && len(tools) > 0
}

// text is everything of the conversation the model reads, as one string:
// the prompts, the hooks' added context, the functions' results.
func (r *geminiRequest) text() string {
	b, _ := json.Marshal(r.Body["contents"])
	return string(b)
}

// responseOf is the result the function call named name (the last one of
// that name) came back with.
func (r *geminiRequest) responseOf(name string) (string, bool) {
	contents, _ := r.Body["contents"].([]any)
	for i := len(contents) - 1; i >= 0; i-- {
		c, _ := contents[i].(map[string]any)
		parts, _ := c["parts"].([]any)
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			fr, _ := pm["functionResponse"].(map[string]any)
			if fr != nil && fr["name"] == name {
				b, _ := json.Marshal(fr["response"])
				return string(b), true
			}
		}
	}
	return "", false
}

// gturn is what the model answers to one request: parts, in order. A nil
// gturn hangs: the stream opens and nothing more comes until the client
// goes away (a model still thinking, for interrupts).
type gturn []map[string]any

// gsay is a text part.
func gsay(text string) map[string]any { return map[string]any{"text": text} }

// gcall is a function call of one of Gemini CLI's tools.
func gcall(name string, args map[string]any) map[string]any {
	return map[string]any{"functionCall": map[string]any{"name": name, "args": args}}
}

// gshell is a call of Gemini CLI's shell tool.
func gshell(command string) map[string]any {
	return gcall("run_shell_command", map[string]any{"command": command, "description": "run"})
}

// geminiAPI is the server.
type geminiAPI struct {
	t      testing.TB
	url    string // http://127.0.0.1:PORT, for GOOGLE_GEMINI_BASE_URL
	mu     sync.Mutex
	reqs   []*geminiRequest
	answer func(r *geminiRequest, n int) gturn
	mains  int
	stop   chan struct{}
}

// newGeminiAPI starts a fake Gemini model on 127.0.0.1 answering with answer.
func newGeminiAPI(t testing.TB, answer func(r *geminiRequest, n int) gturn) *geminiAPI {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &geminiAPI{t: t, answer: answer, stop: make(chan struct{})}
	m.url = "http://" + ln.Addr().String()
	srv := &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() {
		close(m.stop)
		srv.Close()
	})
	return m
}

func (m *geminiAPI) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r := &geminiRequest{Path: req.URL.Path, Raw: string(body)}
	if i := strings.LastIndexByte(req.URL.Path, ':'); i >= 0 {
		r.Method = req.URL.Path[i+1:]
	}
	_ = json.Unmarshal(body, &r.Body)
	m.mu.Lock()
	m.reqs = append(m.reqs, r)
	m.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.Method {
	case "countTokens":
		io.WriteString(w, `{"totalTokens": 10}`)
		return
	case "generateContent", "streamGenerateContent":
	default:
		http.NotFound(w, req)
		return
	}
	var tr gturn
	if r.main() {
		m.mu.Lock()
		n := m.mains
		m.mains++
		m.mu.Unlock()
		tr = m.answer(r, n)
	} else {
		// A side request wants JSON (the next speaker check): the person
		// speaks next, so the turn ends where the script ends it.
		tr = gturn{gsay(`{"reasoning": "The reply is complete.", "next_speaker": "user"}`)}
	}
	chunk := func(parts []map[string]any, finish bool) []byte {
		cand := map[string]any{"index": 0, "content": map[string]any{"role": "model", "parts": parts}}
		if finish {
			cand["finishReason"] = "STOP"
		}
		b, _ := json.Marshal(map[string]any{
			"candidates":    []any{cand},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
			"modelVersion":  "gemini-2.5-flash",
			"responseId":    fmt.Sprintf("resp_%d", time.Now().UnixNano()),
		})
		return b
	}
	if r.Method == "generateContent" {
		w.Write(chunk(tr, true))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	send := func(b []byte) {
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	if tr == nil {
		send(chunk([]map[string]any{{"text": ""}}, false))
		select {
		case <-req.Context().Done():
		case <-m.stop:
		}
		return
	}
	for i, p := range tr {
		send(chunk([]map[string]any{p}, i == len(tr)-1))
	}
}

// requests is every request so far.
func (m *geminiAPI) requests() []*geminiRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*geminiRequest(nil), m.reqs...)
}

// mainRequests is every request of the session's own turns.
func (m *geminiAPI) mainRequests() []*geminiRequest {
	var out []*geminiRequest
	for _, r := range m.requests() {
		if r.main() {
			out = append(out, r)
		}
	}
	return out
}
