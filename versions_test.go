package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// metaLine is a request that names its protocol revision in _meta, as
// 2026-07-28 requests do instead of an initialize handshake.
func metaLine(id int, method, revision string) string {
	v, _ := json.Marshal(revision)
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method +
		`","params":{"_meta":{"` + mcp.MetaKeyProtocolVersion + `":` + string(v) + `,"` + mcp.MetaKeyClientCapabilities + `":{}}}}`
}

// errorOf returns the error object of a reply, failing when it has none.
func errorOf(t *testing.T, msg map[string]any) map[string]any {
	t.Helper()
	e, ok := msg["error"].(map[string]any)
	if !ok {
		t.Fatalf("reply %v is not an error", msg)
	}
	return e
}

// TestUnsupportedVersionData: a request naming a revision the server does
// not speak gets -32022 with the data the protocol defines, the revisions
// it speaks and the one asked for, clipped; nothing else.
func TestUnsupportedVersionData(t *testing.T) {
	long := "2099-" + strings.Repeat("9", 200)
	for _, tt := range []struct{ requested, want string }{
		{"2099-01-01", "2099-01-01"},
		{long, shorten(long, maxQuotedKey)},
	} {
		s := startServer(t, noteTree(t, manyNotes(1)), nil)
		s.send(metaLine(1, "tools/list", tt.requested))
		msg := s.next()
		e := errorOf(t, msg)
		if msg["id"] != float64(1) || e["code"] != float64(mcp.CodeUnsupportedProtocolVersion) {
			t.Fatalf("got %v; want -32022 for request 1", msg)
		}
		want := map[string]any{
			"supported": []any{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"},
			"requested": tt.want,
		}
		if diff := cmp.Diff(want, e["data"]); diff != "" {
			t.Errorf("data of the -32022 reply (-want +got):\n%s", diff)
		}
	}
}

// TestMixedConnection: a request carrying 2026-07-28 in _meta initializes
// the connection by itself, so an initialize after it is refused with
// -32600 and a reason that says so; the other order works, each request
// answered at the revision it names.
func TestMixedConnection(t *testing.T) {
	s := startServer(t, noteTree(t, manyNotes(1)), nil)
	s.send(metaLine(1, "tools/list", "2026-07-28"))
	if msg := s.next(); msg["id"] != float64(1) || msg["result"] == nil {
		t.Fatalf("the 2026-07-28 request got %v", msg)
	}
	s.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	msg := s.next()
	e := errorOf(t, msg)
	if msg["id"] != float64(2) || e["code"] != float64(jsonrpc.CodeInvalidRequest) ||
		!strings.Contains(e["message"].(string), "already initialized") || strings.Contains(e["message"].(string), "duplicate") {
		t.Fatalf("the initialize after a 2026-07-28 request got %v; want -32600 saying the connection is already initialized", msg)
	}
	if !strings.Contains(s.log.String(), "outcome=protocol_error") {
		t.Errorf("the refused initialize was not logged; log:\n%s", s.log)
	}

	s = startServer(t, noteTree(t, manyNotes(1)), nil)
	s.initialize()
	s.send(metaLine(3, "tools/list", "2026-07-28"))
	if msg := s.next(); msg["id"] != float64(3) || msg["result"] == nil {
		t.Fatalf("the 2026-07-28 request after initialize got %v", msg)
	}
	s.send(`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if e := errorOf(t, s.next()); !strings.Contains(e["message"].(string), "already initialized") {
		t.Errorf("a second initialize got %v; want the same refusal", e)
	}
}
