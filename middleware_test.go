package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// auditLines returns the audit lines in a JSON log, without their time and
// duration, which vary.
func auditLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if m["msg"] != "call" {
			continue
		}
		if _, ok := m["duration"].(float64); !ok {
			t.Errorf("log line without a duration: %s", line)
		}
		delete(m, "time")
		delete(m, "duration")
		out = append(out, m)
	}
	return out
}

// auditCalls makes one call of each outcome and returns the log lines at
// the given level.
func auditCalls(t *testing.T, level slog.Level) (lines []map[string]any, raw string) {
	buf := new(lockedBuffer)
	log := slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: level}))
	cs := hStart(t, "practice-data", log).client("")
	ctx := context.Background()
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": "sign-in"}}); err != nil || res.IsError {
		t.Fatalf("search: %+v, %v", res, err)
	}
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": strings.Repeat("q", 201)}}); err != nil || !res.IsError {
		t.Fatalf("long query: %+v, %v; want a tool error", res, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "practice-notes:///sample-notes.md"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "practice-notes:///..%2Fsecret.md"}); err == nil {
		t.Fatal("traversal read succeeded")
	}
	cs.Close()
	raw = buf.String()
	return auditLines(t, raw), raw
}

// At the default level only refusals are logged, at warn.
func TestAuditRefusalsOnly(t *testing.T) {
	got, raw := auditCalls(t, slog.LevelInfo)
	want := []map[string]any{
		{"level": "WARN", "msg": "call", "method": "tools/call", "tool": "search_notes", "args_bytes": float64(213),
			"outcome": "tool_error", "reason": "invalid query: query is 201 characters long; the limit is 200"},
		{"level": "WARN", "msg": "call", "method": "resources/read", "resource": "practice-notes:///..%2Fsecret.md",
			"outcome": "protocol_error", "reason": "note refused: not a relative path inside the root"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("audit lines mismatch (-want +got):\n%s\nlog:\n%s", diff, raw)
	}
}

// At debug every call is logged, and still never the query or note text.
func TestAuditDebug(t *testing.T) {
	got, raw := auditCalls(t, slog.LevelDebug)
	type line struct{ Method, Tool, Resource, Outcome string }
	var lines []line
	for _, m := range got {
		s := func(k string) string { v, _ := m[k].(string); return v }
		switch s("method") {
		case "server/discover", "initialize", "notifications/initialized":
			// The handshake depends on the protocol revision the client picks.
			if s("outcome") != "ok" {
				t.Errorf("handshake line %v", m)
			}
			continue
		}
		lines = append(lines, line{s("method"), s("tool"), s("resource"), s("outcome")})
	}
	want := []line{
		{Method: "tools/call", Tool: "search_notes", Outcome: "ok"},
		{Method: "tools/call", Tool: "search_notes", Outcome: "tool_error"},
		{Method: "resources/read", Resource: "practice-notes:///sample-notes.md", Outcome: "ok"},
		{Method: "resources/read", Resource: "practice-notes:///..%2Fsecret.md", Outcome: "protocol_error"},
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("audit lines mismatch (-want +got):\n%s\nlog:\n%s", diff, raw)
	}
	for _, secret := range []string{"sign-in", "qqqq", "Clearing the session cookie", "Workshop practice notes"} {
		if strings.Contains(raw, secret) {
			t.Errorf("log holds %q:\n%s", secret, raw)
		}
	}
}

// TestRecoverPanics: a panic is answered with -32603 and logged on one
// line that names the method and the kind of panic but not the panic's
// text.
func TestRecoverPanics(t *testing.T) {
	var logBuf lockedBuffer
	log := slog.New(slog.NewTextHandler(&logBuf, nil))
	mw := recoverPanics(log)
	h := mw(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		panic(errors.New("/home/learner/secret/notes.md: PANIC-TEXT"))
	})
	res, err := h(context.Background(), "tools/call", nil)
	var we *jsonrpc.Error
	if res != nil || !errors.As(err, &we) || we.Code != jsonrpc.CodeInternalError {
		t.Fatalf("got %v, %v; want a -32603 error", res, err)
	}
	if strings.Contains(we.Message, "PANIC-TEXT") {
		t.Errorf("the reply quotes the panic: %q", we.Message)
	}
	out := logBuf.String()
	if strings.Count(out, "\n") != 1 || !strings.Contains(out, "method=tools/call") || !strings.Contains(out, "*errors.errorString") {
		t.Errorf("log should be one line naming the method and panic type:\n%s", out)
	}
	if strings.Contains(out, "PANIC-TEXT") || strings.Contains(out, "/home/") || strings.Contains(out, "/work/") {
		t.Errorf("the log quotes the panic or a source path:\n%s", out)
	}
	if !strings.Contains(out, "TestRecoverPanics") {
		t.Errorf("the log has no stack:\n%s", out)
	}

	// A runtime error keeps its message, which the runtime makes.
	logBuf = lockedBuffer{}
	h = mw(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		var s []int
		_ = s[3]
		return nil, nil
	})
	if _, err := h(context.Background(), "tools/call", nil); !errors.As(err, &we) {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(logBuf.String(), "index out of range [3] with length 0") {
		t.Errorf("runtime error not described:\n%s", logBuf.String())
	}
}
