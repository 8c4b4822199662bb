package state

import (
	"strings"
	"testing"
)

func TestLocalURL(t *testing.T) {
	for u, want := range map[string]string{
		"http://127.0.0.1:4096":       "http://127.0.0.1:4096",
		"http://127.0.0.1:4096/":      "http://127.0.0.1:4096",
		"http://localhost:4096":       "http://localhost:4096",
		"http://[::1]:4096":           "http://[::1]:4096",
		"https://127.0.0.1:4096":      "",
		"http://example.com:4096":     "",
		"http://127.0.0.1.evil:4096":  "",
		"http://user:pw@127.0.0.1:1":  "",
		"http://127.0.0.1:1/session":  "",
		"http://127.0.0.1:1?x=1":      "",
		"http://127.0.0.1:1#x":        "",
		"":                            "",
		"127.0.0.1:4096":              "",
		"http://127.0.0.1:4096\r\nX:": "",
	} {
		if got := LocalURL(u); got != want {
			t.Errorf("LocalURL(%q) = %q, want %q", u, got, want)
		}
	}
}

// FuzzLocalURL: whatever a harness's payload names, conch reaches only
// this computer's loopback, over plain http, at a host and port with
// nothing that could end a request line.
func FuzzLocalURL(f *testing.F) {
	f.Add("http://127.0.0.1:4096")
	f.Add("http://localhost:1/")
	f.Add("http://[::1]:2")
	f.Add("http://127.0.0.1@evil:1")
	f.Fuzz(func(t *testing.T, u string) {
		got := LocalURL(u)
		if got == "" {
			return
		}
		host := strings.TrimPrefix(got, "http://")
		if !strings.HasPrefix(got, "http://") || strings.ContainsAny(host, "/@?# \r\n\t") {
			t.Fatalf("LocalURL(%q) = %q", u, got)
		}
		name := host
		if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
			name = host[:i]
		}
		if name != "127.0.0.1" && name != "localhost" && name != "[::1]" {
			t.Fatalf("LocalURL(%q) = %q: not the loopback", u, got)
		}
	})
}

func TestResumeValid(t *testing.T) {
	ok := Resume{Harness: "claude", How: ResumeHow{Argv: []string{"/usr/bin/claude", "-p"}}}
	if err := ok.valid(); err != nil {
		t.Errorf("a whole record: %v", err)
	}
	for name, r := range map[string]Resume{
		"no harness":       {How: ResumeHow{Argv: []string{"/usr/bin/vim"}}},
		"not a harness":    {Harness: "../vim", How: ResumeHow{Argv: []string{"/usr/bin/vim"}}},
		"no program":       {Harness: "claude"},
		"relative program": {Harness: "claude", How: ResumeHow{Argv: []string{"claude"}}},
		"too large":        {Harness: "claude", How: ResumeHow{Argv: []string{"/c", strings.Repeat("x", 17*MaxCommand)}}},
	} {
		if err := r.valid(); err == nil {
			t.Errorf("%s: valid", name)
		}
	}
}
