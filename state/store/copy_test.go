package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCopy: store.Copy takes every record of a home of files into an empty
// store, never the store's own files (lock, journal, temporary and
// overlay files) nor what the caller keeps back, and refuses a store that
// holds anything.
func TestCopy(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"index.json":           `{"version":1}`,
		"chats/c_1.json":       `{"id":"c_1"}`,
		"chats/.c_1.json.live": "overlay",
		"chats/.c_2.json123":   "a killed writer's",
		"log/c_1/000001.json":  `{"n":1}`,
		"conch.lock":           "",
		JournalName:            "journal",
		OldMarkName:            "mark",
		"config.toml":          "[backend]\n",
		"hub/stream":           "the hub's",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	src, dst := NewFiles(dir, nil, 0), NewMem()
	skip := func(key string) bool { return key == "config.toml" || key == "hub" || strings.HasPrefix(key, "hub/") }
	n, err := Copy(dst, src, CopyOptions{Skip: skip, Keep: func(key string, data []byte) ([]byte, error) {
		return append([]byte("kept "), data...), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var walk func(dir string)
	walk = func(d string) {
		names, err := dst.List(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, "/") {
				walk(strings.TrimPrefix(d+"/"+strings.TrimSuffix(name, "/"), "/"))
				continue
			}
			got = append(got, strings.TrimPrefix(d+"/"+name, "/"))
		}
	}
	walk("")
	slices.Sort(got)
	want := []string{"chats/c_1.json", "index.json", "log/c_1/000001.json"}
	if n != len(want) || !slices.Equal(got, want) {
		t.Fatalf("copied %d: %v, want %v", n, got, want)
	}
	if data, _ := dst.Get("chats/c_1.json"); string(data) != `kept {"id":"c_1"}` {
		t.Fatalf("the record went as %q, not through Keep", data)
	}
	if _, err := Copy(dst, src, CopyOptions{}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("a copy into a store that holds records: %v, want refused", err)
	}
	if _, err := Copy(NewMem(), src, CopyOptions{Keep: func(string, []byte) ([]byte, error) { return nil, errors.New("no") }}); err == nil {
		t.Fatal("Keep's error was not the copy's")
	}
}

func TestOwn(t *testing.T) {
	for key, own := range map[string]bool{
		"conch.lock": true, JournalName: true, OldMarkName: true, "chats/.c_1.json.live": true, "chats/.c_1.json123": true,
		"chats/c_1.json": false, "index.json": false, "log/c_1/000001.json": false,
	} {
		if Own(key) != own {
			t.Errorf("Own(%q) = %v, want %v", key, !own, own)
		}
	}
}
