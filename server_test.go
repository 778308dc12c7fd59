package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/boundary/seam"
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
	cs := startServer(t, "practice-data", nil).client("")
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
	// The schemas are checked against the code in search_notes_test.go.
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "practice-notes" || !strings.Contains(init.Instructions, "quoted file text") {
		t.Errorf("server info %+v, instructions %q", init.ServerInfo, init.Instructions)
	}
}

// Every revision the SDK supports can list and call the tool.
func TestProtocolVersions(t *testing.T) {
	for _, v := range []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
		t.Run(v, func(t *testing.T) {
			cs := startServer(t, "practice-data", nil).client(v)
			res := call(t, cs, map[string]any{"query": "sign-in"})
			if res.IsError || !strings.Contains(resultText(res), `"note_id":"N2"`) {
				t.Errorf("protocol %s: %+v", v, res)
			}
		})
	}
}

func TestUnknownToolIsProtocolError(t *testing.T) {
	cs := startServer(t, "practice-data", nil).client("")
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_note", Arguments: map[string]any{}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("unknown tool: err = %v; want a JSON-RPC error %d", err, jsonrpc.CodeInvalidParams)
	}
}

// TestOutputHygiene drives the real server over its line transport with a
// mix of good calls, refusals, a panic, resource reads and bad lines, with
// the log at debug level. Every stdout line must be one JSON-RPC message;
// no reply may hold an absolute path; no log line may hold note text or a
// path outside the root; and the folder must be exactly as it was.
func TestOutputHygiene(t *testing.T) {
	const noteText = "NOTE-TEXT-MARKER"
	base := t.TempDir()
	dir := filepath.Join(base, "notes")
	writeNote(t, filepath.Join(dir, "a.md"), "# N1\n\nneedle "+noteText+"\n")
	writeNote(t, filepath.Join(dir, "boom.md"), "needle "+noteText+"\n")
	writeNote(t, filepath.Join(base, "outside.md"), "needle "+noteText+" outside\n")
	writeNote(t, filepath.Join(dir, "big.md"), strings.Repeat(noteText+"\n", 10000))
	if err := os.Symlink(filepath.Join(base, "outside.md"), filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	injectFaults(t, func(ctx context.Context, op seam.Op, name string) error {
		if op == seam.ReadFile && name == "boom.md" {
			panic("read " + filepath.Join(dir, name) + ": " + noteText)
		}
		return nil
	})

	before := treeState(t, base)
	s := startServer(t, dir, nil)
	s.initialize()
	lines := []string{
		callLine(1, "needle"), // panics on boom.md
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"outside"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"a","query":"b"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"` + strings.Repeat("x", 300) + `"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"practice-notes:///a.md"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"practice-notes:///..%2Foutside.md"}}`,
		`{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"practice-notes:///link.md"}}`,
		`{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"practice-notes:///big.md"}}`,
		`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
		`not json ` + noteText,
		`{"jsonrpc":"2.0","id":11,"method":"ping","params":{"x":"` + noteText + `","x":1}}`,
	}
	for _, l := range lines {
		s.send(l)
	}
	var replies []string
	for range lines {
		msg := s.next()
		b, _ := json.Marshal(msg)
		replies = append(replies, string(b))
	}
	all := strings.Join(replies, "\n")
	if strings.Contains(all, base) {
		t.Errorf("a reply holds an absolute path:\n%s", all)
	}
	if !strings.Contains(all, `"id":1`) || !strings.Contains(all, "-32603") {
		t.Errorf("the panicking call was not answered with an internal error:\n%s", all)
	}
	log := s.log.String()
	if bad, ok := containsAny(log, noteText, base); ok {
		t.Errorf("the log holds %q:\n%s", bad, log)
	}
	if !strings.Contains(log, "recovered from a panic") {
		t.Errorf("the panic was not logged:\n%s", log)
	}
	if after := treeState(t, base); after != before {
		t.Errorf("serving changed the folder:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// treeState describes every entry under dir: name, type, permissions,
// size, modification time and content.
func treeState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d %v", p, info.Mode(), info.Size(), info.ModTime().UnixNano())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %x", sha256.Sum256(data))
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
