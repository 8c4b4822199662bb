package proc

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestReadProcFiles(t *testing.T) {
	data, ok := read("/proc/self/stat")
	if !ok || !strings.HasPrefix(string(data), strconv.Itoa(os.Getpid())+" (") {
		t.Fatalf("read /proc/self/stat = %q, %v", data, ok)
	}
	// An environment past the first buffer reads whole.
	env, ok := read("/proc/self/environ")
	if !ok || len(env) == 0 {
		t.Fatalf("read /proc/self/environ: %d bytes, %v", len(env), ok)
	}
	if want, err := os.ReadFile("/proc/self/environ"); err != nil || string(want) != string(env) {
		t.Fatalf("read /proc/self/environ gave %d bytes, os.ReadFile %d (%v)", len(env), len(want), err)
	}
	if _, ok := read("/proc/0/stat"); ok {
		t.Fatal("read /proc/0/stat: ok, want none")
	}
}
