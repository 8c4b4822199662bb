package install

// conch's MCP server (conch mcp) in a harness's MCP settings, kept and
// taken out like its hooks: the server's entry is named conch, and an
// entry of that name is conch's when it runs conch mcp.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// MCPName is the name conch's server has in every client's settings.
const MCPName = "conch"

// MCPEvent is what an install's words say it put in for the server.
const MCPEvent = "MCP server " + MCPName

// MCP is conch's entry in one JSON settings file's object of MCP servers.
type MCP struct {
	Key string // the top-level key of the servers' object: "mcpServers", OpenCode's "mcp"
	// Entry is conch's entry for the program conch (with its fields in
	// the order the harness's own documents write them).
	Entry func(conch string) []Field
}

// mcpEntry is conch's entry as most clients read it: command and args.
func mcpEntry(conch string) []Field {
	return []Field{{"command", JSONOf(conch)}, {"args", JSONOf([]string{"mcp"})}}
}

// MCPServers is the shape Claude Code, Cursor, Gemini CLI and Qwen Code
// read: "mcpServers": {"conch": {"command": …, "args": ["mcp"]}}.
var MCPServers = MCP{Key: "mcpServers", Entry: mcpEntry}

// JSONOf is v as JSON written the way the harnesses' own documents
// write a short list or object: on one line, a space after each comma
// and colon.
func JSONOf(v any) json.RawMessage {
	switch v := v.(type) {
	case []string:
		words := make([]string, len(v))
		for i, w := range v {
			words[i] = string(JSONOf(w))
		}
		return json.RawMessage("[" + strings.Join(words, ", ") + "]")
	case map[string]string:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		pairs := make([]string, len(keys))
		for i, k := range keys {
			pairs[i] = string(JSONOf(k)) + ": " + string(JSONOf(v[k]))
		}
		return json.RawMessage("{" + strings.Join(pairs, ", ") + "}")
	}
	data, _ := json.Marshal(v)
	return data
}

// MCPBlock is the JSON block for any MCP client (conch install mcp
// --print): conch's entry under "mcpServers".
func MCPBlock(conch string) string {
	entry := &object{}
	for _, f := range mcpEntry(conch) {
		entry.set(f.Key, f.Value)
	}
	servers := &object{}
	servers.set(MCPName, entry)
	root := &object{}
	root.set(MCPServers.Key, servers)
	var b bytes.Buffer
	_ = pretty(&b, root, 0)
	return b.String() + "\n"
}

// isConchMCP says whether an MCP server's entry runs conch mcp: its args
// are ["mcp"] (or its command, a list, ends with "mcp") and its program is
// conch, by any path.
func isConchMCP(raw json.RawMessage) bool {
	var e struct {
		Command any      `json:"command"`
		Args    []string `json:"args"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return false
	}
	words := e.Args
	switch c := e.Command.(type) {
	case string:
		words = append([]string{c}, words...)
	case []any:
		words = nil
		for _, w := range c {
			s, _ := w.(string)
			words = append(words, s)
		}
		words = append(words, e.Args...)
	}
	return len(words) == 2 && words[1] == "mcp" && isConchProgram(words[0])
}

// isConchProgram says whether a program's name or path is conch's.
func isConchProgram(p string) bool {
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	return base == "conch" || base == "conch.exe"
}

// MCPFile puts conch's server into the JSON settings file at path (or,
// with r.Remove, takes it out): every other server and setting is kept as
// it was; again changes nothing; a server named conch that is not conch's
// is never touched.
func (r *Run) MCPFile(path string, m MCP) (*Result, error) {
	res := &Result{File: path, Events: []string{MCPEvent}}
	if r.Remove && serversOnly(path) {
		// A file of servers that held only conch's (one install made) goes.
		err := r.removeLeaving(res, func(data []byte) ([]byte, bool, error) {
			out, changed, notes, err := m.Merge(data, r.Conch, true)
			res.Notes = append(res.Notes, notes...)
			return out, changed, err
		}, emptyObject)
		if err != nil {
			return nil, err
		}
		return res, nil
	}
	err := r.Edit(res, func(data []byte, exists bool) ([]byte, bool, error) {
		if !exists && r.Remove {
			return nil, false, nil
		}
		out, changed, notes, err := m.Merge(data, r.Conch, r.Remove)
		res.Notes = append(res.Notes, notes...)
		return out, changed, err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Merge puts conch's entry into a settings file's JSON, or takes it out,
// keeping the bytes of everything else. It says whether anything changed,
// and what a person should know (an entry named conch that is not
// conch's).
func (m MCP) Merge(data []byte, conch string, remove bool) ([]byte, bool, []Note, error) {
	root, err := parseObject(data)
	if err != nil {
		return nil, false, nil, err
	}
	servers := &object{}
	if raw, ok := root.raw(m.Key); ok {
		if servers, err = parseObject(raw); err != nil {
			return nil, false, nil, fmt.Errorf("its %q is not an object", m.Key)
		}
	}
	cur, has := servers.raw(MCPName)
	switch {
	case has && !isConchMCP(cur) && remove:
		return data, false, []Note{MCPNotConchs{}}, nil
	case has && !isConchMCP(cur):
		return nil, false, nil, Predicate{fmt.Errorf("has an MCP server named %q that does not run conch mcp", MCPName)}
	case remove && !has:
		return data, false, nil, nil
	case remove:
		servers.del(MCPName)
	default:
		entry := &object{}
		for _, f := range m.Entry(conch) {
			entry.set(f.Key, f.Value)
		}
		if has && sameJSON(cur, entry) {
			return data, false, nil, nil
		}
		servers.set(MCPName, entry)
	}
	if len(servers.keys) == 0 {
		root.del(m.Key)
	} else {
		root.set(m.Key, servers)
	}
	var out bytes.Buffer
	if err := pretty(&out, root, 0); err != nil {
		return nil, false, nil, err
	}
	out.WriteByte('\n')
	if !json.Valid(out.Bytes()) {
		return nil, false, nil, errors.New("the merged file would not be JSON")
	}
	return out.Bytes(), true, nil, nil
}

// serversOnly says whether the file at path holds MCP servers and nothing
// else (.mcp.json, mcp.json, Copilot's mcp-config.json), not a harness's
// settings with its servers in them.
func serversOnly(path string) bool {
	switch filepath.Base(path) {
	case ".mcp.json", "mcp.json", "mcp-config.json":
		return true
	}
	return false
}

// emptyObject says whether a settings file's JSON is an object with
// nothing in it.
func emptyObject(data []byte) bool {
	root, err := parseObject(data)
	return err == nil && len(root.keys) == 0
}

// sameJSON says whether a value read from a file is the entry conch
// would write, whatever its spacing.
func sameJSON(raw json.RawMessage, entry *object) bool {
	var b bytes.Buffer
	if pretty(&b, entry, 0) != nil {
		return false
	}
	var x, y any
	return json.Unmarshal(raw, &x) == nil && json.Unmarshal(b.Bytes(), &y) == nil && reflect.DeepEqual(x, y)
}

// MCPTableHeader is conch's table in a TOML configuration's MCP servers.
const MCPTableHeader = "[mcp_servers." + MCPName + "]"

// TOMLMCPFile puts conch's server into a TOML configuration (Codex's
// config.toml) as a table of its own, MCPTableHeader and what table says
// for the conch program (or takes it out), by lines: the rest of the
// file stays as it is.
func (r *Run) TOMLMCPFile(path string, table func(conch string) string) (*Result, error) {
	res := &Result{File: path, Events: []string{MCPEvent}}
	err := r.Edit(res, func(data []byte, exists bool) ([]byte, bool, error) {
		if !exists && r.Remove {
			return nil, false, nil
		}
		conf, err := DecodeTOML(string(data))
		if err != nil {
			return nil, false, Predicate{fmt.Errorf("is not TOML: %v", err)}
		}
		servers, _ := conf["mcp_servers"].(map[string]any)
		cur, has := servers[MCPName].(map[string]any)
		ours := has && isConchMCPTable(cur)
		want := table(r.Conch)
		switch {
		case has && !ours && r.Remove:
			res.Notes = append(res.Notes, MCPNotConchs{})
			return nil, false, nil
		case has && !ours:
			return nil, false, Predicate{fmt.Errorf("has an MCP server named %q that does not run conch mcp", MCPName)}
		case r.Remove && !has:
			return nil, false, nil
		}
		text := string(data)
		if has {
			wantConf, _ := DecodeTOML(want)
			if reflect.DeepEqual(cur, wantConf["mcp_servers"].(map[string]any)[MCPName]) && !r.Remove {
				return nil, false, nil
			}
			var n int
			if text, n = DropTables(text, []string{MCPTableHeader}); n == 0 {
				return nil, false, fmt.Errorf("conch's MCP server is not a table conch can change (%s)", MCPTableHeader)
			}
			if r.Remove && strings.HasSuffix(text, "\n\n") {
				text = text[:len(text)-1] // the blank line an install put before it
			}
		}
		if !r.Remove {
			if text != "" && !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			if strings.TrimSpace(text) != "" && !strings.HasSuffix(text, "\n\n") {
				text += "\n"
			}
			text += want
		}
		check, err := DecodeTOML(text)
		if err != nil {
			return nil, false, fmt.Errorf("the changed file would not be TOML (%v)", err)
		}
		s, _ := check["mcp_servers"].(map[string]any)
		if _, still := s[MCPName]; still == r.Remove {
			return nil, false, fmt.Errorf("conch's MCP server is not where conch can change it")
		}
		return []byte(text), true, nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// isConchMCPTable says whether a [mcp_servers.conch] table runs conch mcp.
func isConchMCPTable(t map[string]any) bool {
	data, err := json.Marshal(t)
	return err == nil && isConchMCP(data)
}
