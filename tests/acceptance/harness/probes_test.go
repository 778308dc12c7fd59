package harness

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/checks"
)

// TestStringArgs: every string and string-array property of a declared
// schema is found, whatever its name, so that search_notes's own
// arguments besides query are probed.
func TestStringArgs(t *testing.T) {
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"query":  map[string]any{"type": "string"},
			"folder": map[string]any{"type": "string"},
			"tags":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"limit":  map[string]any{"type": "integer"},
			"scope":  map[string]any{"type": []any{"string", "null"}},
		},
	}
	if diff := cmp.Diff([]string{"folder", "query", "scope", "tags"}, stringArgs(schema)); diff != "" {
		t.Errorf("stringArgs (-want +got):\n%s", diff)
	}
}

// TestDeclaredArgs: a callable tool's path argument (a string or an
// array of strings) goes to the path tools, every other string argument of it and every string argument of
// search_notes besides query to check 4's other arguments (arrays marked),
// and a tool that says it writes to neither.
func TestDeclaredArgs(t *testing.T) {
	obj := func(props map[string]any) map[string]any {
		return map[string]any{"type": "object", "properties": props}
	}
	str := map[string]any{"type": "string"}
	tools := []*mcp.Tool{
		{Name: "search_notes", InputSchema: obj(map[string]any{"query": str, "folder": str,
			"tags": map[string]any{"type": "array", "items": str}, "limit": map[string]any{"type": "integer"}})},
		{Name: "read_note", InputSchema: obj(map[string]any{"path": str, "encoding": str})},
		{Name: "read_notes", InputSchema: obj(map[string]any{"paths": map[string]any{"type": "array", "items": str}})},
		{Name: "stat_notes", InputSchema: obj(map[string]any{"files": map[string]any{"type": "array", "items": map[string]any{"type": "integer"}}})},
		{Name: "grep", InputSchema: obj(map[string]any{"pattern": str})},
		{Name: "write_note", InputSchema: obj(map[string]any{"path": str, "text": str})},
	}
	got := declaredArgs(tools)
	var paths []pathTool
	for _, d := range got {
		if d.name != "search_notes" && !d.other {
			paths = append(paths, d)
		}
	}
	if diff := cmp.Diff([]pathTool{{name: "read_note", arg: "path"}, {name: "read_notes", arg: "paths", array: true}}, paths, cmp.AllowUnexported(pathTool{})); diff != "" {
		t.Errorf("path tools (-want +got):\n%s", diff)
	}
	s := &session{tools: got}
	want := []checks.ToolArg{
		{Tool: "search_notes", Arg: "folder"}, {Tool: "search_notes", Arg: "tags", Array: true},
		{Tool: "read_note", Arg: "encoding"}, {Tool: "stat_notes", Arg: "files", Array: true}, {Tool: "grep", Arg: "pattern"},
	}
	if diff := cmp.Diff(want, s.toolArgs(context.Background())); diff != "" {
		t.Errorf("other arguments (-want +got):\n%s", diff)
	}
}
