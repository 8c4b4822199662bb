// Package render turns conch's domain values into words for people and
// models, tables, and JSON for programs. The exact sentences of the spec
// live here, once. It reads and writes no records.
package render

import (
	"encoding/json"
	"fmt"
	"io"
)

// Printer writes a command's answer: words, or JSON with --json.
type Printer struct {
	Out, Err io.Writer
	JSON     bool
}

// Error writes a failure: one line `conch: …`, or with --json the object
// {"error": …, "code": …}, on standard error.
func (p *Printer) Error(msg string, code int) {
	if p.JSON {
		data, _ := json.Marshal(struct {
			Error string `json:"error"`
			Code  int    `json:"code"`
		}{msg, code})
		fmt.Fprintf(p.Err, "%s\n", data)
		return
	}
	fmt.Fprintf(p.Err, "conch: %s\n", oneLine(msg))
}

// Value writes v as JSON with --json, else the words.
func (p *Printer) Value(v any, words string) error {
	if p.JSON {
		return p.WriteJSON(v)
	}
	if words == "" {
		return nil
	}
	_, err := io.WriteString(p.Out, words)
	return err
}

// WriteJSON writes v as indented JSON and a newline.
func (p *Printer) WriteJSON(v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(p.Out, "%s\n", data)
	return err
}

// Warn writes a warning line on standard error.
func (p *Printer) Warn(format string, args ...any) {
	fmt.Fprintf(p.Err, "conch: warning: "+format+"\n", args...)
}

func oneLine(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '\n' || r == '\r' {
			r = ' '
		}
		out = append(out, r)
	}
	return string(out)
}
