package install

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzMCPMerge: whatever a settings file holds, a merge never panics; put
// in, the file is JSON with conch's entry (and again changes nothing);
// taken out, no entry of conch's is left, and every other server is as
// it was.
func FuzzMCPMerge(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `{"mcpServers": {}}`, `{"mcpServers": {"docs": {"command": "npx"}}}`,
		`{"mcpServers": {"conch": {"command": "/opt/conch", "args": ["mcp"]}}}`,
		`{"mcpServers": {"conch": {"command": "python3"}}}`, `{"mcpServers": []}`, `[1]`, `{"a": 1} x`,
		`{"mcp": {"conch": {"type": "local", "command": ["conch", "mcp"]}}}`,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, opencode bool) {
		m := MCPServers
		if opencode {
			m = listMCP
		}
		in, changed, _, err := m.Merge(data, "conch", false)
		if err != nil {
			return
		}
		if !changed {
			in = data
		}
		root, err := servers(in, m.Key)
		if err != nil {
			t.Fatalf("put in, the file is not JSON with a servers' object: %v\n%s", err, in)
		}
		if !isConchMCP(root[MCPName]) {
			t.Fatalf("put in, conch's entry is not there:\n%s", in)
		}
		if again, changed, _, err := m.Merge(in, "conch", false); err != nil || changed {
			t.Fatalf("again: changed %v, %v:\n%s", changed, err, again)
		}
		out, changed, _, err := m.Merge(in, "conch", true)
		if err != nil || !changed {
			t.Fatalf("taken out: changed %v, %v", changed, err)
		}
		after, err := servers(out, m.Key)
		if err != nil {
			t.Fatalf("taken out, the file is not JSON: %v\n%s", err, out)
		}
		if _, ok := after[MCPName]; ok {
			t.Fatalf("taken out, conch's entry is still there:\n%s", out)
		}
		for name, v := range root {
			if name != MCPName && !bytes.Equal(bytes.TrimSpace(after[name]), bytes.TrimSpace(v)) {
				t.Fatalf("server %q changed: %s, was %s", name, after[name], v)
			}
		}
	})
}

// servers is the servers' object of a settings file (none: empty).
func servers(data []byte, key string) (map[string]json.RawMessage, error) {
	var root map[string]json.RawMessage
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	var s map[string]json.RawMessage
	if raw, ok := root[key]; ok {
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// listMCP is a server's entry whose command is a list, under "mcp" (as
// OpenCode reads it).
var listMCP = MCP{Key: "mcp", Entry: func(conch string) []Field {
	return []Field{{"type", JSONOf("local")}, {"command", JSONOf([]string{conch, "mcp"})}, {"enabled", JSONOf(true)}}
}}
