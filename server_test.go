package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/search"
)

func call(t *testing.T, cs *mcp.ClientSession, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_notes", Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%v): %v", args, err)
	}
	return res
}

func TestToolListing(t *testing.T) {
	cs := hStart(t, "practice-data", nil).client("")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 {
		t.Fatalf("got %d tools, want exactly 1", len(res.Tools))
	}
	tool := res.Tools[0]
	no := false
	wantAnn := &mcp.ToolAnnotations{Title: "Search practice notes", ReadOnlyHint: true, DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}
	if diff := cmp.Diff(wantAnn, tool.Annotations); diff != "" || tool.Name != "search_notes" || tool.Title == "" {
		t.Errorf("tool %q (title %q) annotations (-want +got):\n%s", tool.Name, tool.Title, diff)
	}
	if !strings.Contains(tool.Description, "untrusted") {
		t.Errorf("description does not say results are untrusted data: %q", tool.Description)
	}
	// The schemas are checked against the code in contract_test.go.
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "practice-notes" || !strings.Contains(init.Instructions, "quoted file text") {
		t.Errorf("server info %+v, instructions %q", init.ServerInfo, init.Instructions)
	}
}

// Every revision the SDK supports can list and call the tool.
func TestProtocolVersions(t *testing.T) {
	for _, v := range []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
		t.Run(v, func(t *testing.T) {
			cs := hStart(t, "practice-data", nil).client(v)
			res := call(t, cs, map[string]any{"query": "sign-in"})
			if res.IsError || !strings.Contains(resultText(res), `"note_id":"N2"`) {
				t.Errorf("protocol %s: %+v", v, res)
			}
		})
	}
}

func TestSearchSignIn(t *testing.T) {
	cs := hStart(t, "practice-data", nil).client("")
	res := call(t, cs, map[string]any{"query": "sign-in"})
	if res.IsError {
		t.Fatalf("tool error: %s", resultText(res))
	}
	var got search.Result
	if err := decodeStructured(res, &got); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join("practice-data", "sample-notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Matches) != 1 {
		t.Fatalf("got %d matches, want 1: %+v", len(got.Matches), got.Matches)
	}
	m := got.Matches[0]
	if m.File != "sample-notes.md" || m.NoteID != "N2" || !strings.Contains(string(file), m.Passage) ||
		!strings.Contains(m.Passage, "sign-in") {
		t.Errorf("match %+v is not the N2 passage of sample-notes.md", m)
	}
	// The text block carries the same JSON as the structured content.
	if len(res.Content) != 1 {
		t.Fatalf("got %d content blocks, want 1", len(res.Content))
	}
	var fromText search.Result
	if err := json.Unmarshal([]byte(resultText(res)), &fromText); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, fromText); diff != "" {
		t.Errorf("text and structured content differ:\n%s", diff)
	}
}

func TestArgumentRefusals(t *testing.T) {
	cs := hStart(t, "practice-data", nil).client("")
	tests := []struct {
		name string
		args any
		want string
	}{
		{"missing query", json.RawMessage(`{}`), `missing required argument "query"`},
		{"null arguments", nil, `missing required argument "query"`},
		{"empty", map[string]any{"query": ""}, "query is empty"},
		{"whitespace only", map[string]any{"query": " \u3000 "}, "only whitespace"},
		{"201 characters", map[string]any{"query": strings.Repeat("x", 201)}, "201 characters long"},
		{"NUL", map[string]any{"query": "sign\x00in"}, "control character"},
		{"newline", map[string]any{"query": "sign\nin"}, "control character"},
		{"number", json.RawMessage(`{"query":42}`), "must be a string, not a number"},
		{"array", json.RawMessage(`{"query":["sign-in"]}`), "must be a string, not an array"},
		{"null query", json.RawMessage(`{"query":null}`), "must be a string, not null"},
		{"unknown key", json.RawMessage(`{"query":"sign-in","root":"/"}`), `unknown argument "root"`},
		{"duplicate key", json.RawMessage(`{"query":"a","query":"sign-in"}`), "more than once"},
		{"not an object", json.RawMessage(`["sign-in"]`), "must be a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, cs, tt.args)
			text := resultText(res)
			if !res.IsError || !strings.Contains(text, tt.want) || strings.Contains(text, "\n") {
				t.Errorf("isError=%v text=%q; want a one-line tool error containing %q", res.IsError, text, tt.want)
			}
			if res.StructuredContent != nil {
				t.Errorf("a refused call carries structured content: %v", res.StructuredContent)
			}
		})
	}
}

// The SDK passes duplicate keys through (last one wins) and treats
// "arguments": null as {}; our decoder is what refuses them. These pin the
// SDK behaviour the decoder relies on: if the SDK started rejecting or
// rewriting such arguments itself, these calls would not reach decodeQuery.
func TestDecodeQuery(t *testing.T) {
	tests := []struct {
		args, want, wantErr string
	}{
		{`{"query":"sign-in"}`, "sign-in", ""},
		{` { "query" : "a\u00e9" } `, "aé", ""},
		{`{"query":"a","query":"b"}`, "", "more than once"},
		{`{"query":"a"}{}`, "", "unexpected data"},
		{`{"query":"a"`, "", "not valid JSON"},
		{`{"Query":"a"}`, "", `unknown argument "Query"`},
		{`null`, "", "must be a JSON object"},
		{``, "", "missing required argument"},
	}
	for _, tt := range tests {
		got, err := decodeQuery(json.RawMessage(tt.args))
		switch {
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("decodeQuery(%s) = %q, %v; want %q", tt.args, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, errBadArguments)):
			t.Errorf("decodeQuery(%s) = %q, %v; want error containing %q", tt.args, got, err, tt.wantErr)
		}
	}
}

func TestUnknownToolIsProtocolError(t *testing.T) {
	cs := hStart(t, "practice-data", nil).client("")
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_note", Arguments: map[string]any{}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("unknown tool: err = %v; want a JSON-RPC error %d", err, jsonrpc.CodeInvalidParams)
	}
}

func TestNoMatch(t *testing.T) {
	cs := hStart(t, "practice-data", nil).client("")
	res := call(t, cs, map[string]any{"query": "quantum spreadsheet"})
	var got search.Result
	if err := decodeStructured(res, &got); err != nil {
		t.Fatal(err)
	}
	want := search.Result{Query: "quantum spreadsheet", Matches: []search.Match{}, Message: `No notes matched "quantum spreadsheet".`, Skipped: []search.Skipped{}}
	if diff := cmp.Diff(want, got); diff != "" || res.IsError {
		t.Errorf("isError=%v, result (-want +got):\n%s", res.IsError, diff)
	}
	if !strings.Contains(resultText(res), `"matches":[]`) {
		t.Errorf("matches is not an empty list on the wire: %s", resultText(res))
	}
}
