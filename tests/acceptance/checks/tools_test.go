package checks

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMayCall: a tool without annotations is called unless its name or
// description says it writes; an annotation that says it may change
// something keeps it from being called.
func TestMayCall(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		tool *mcp.Tool
		want bool
	}{
		{&mcp.Tool{Name: "read_note", Description: "Read one note by its path."}, true},
		{&mcp.Tool{Name: "read_note", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, true},
		{&mcp.Tool{Name: "read_note", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false}}, false},
		{&mcp.Tool{Name: "read_note", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &yes}}, false},
		{&mcp.Tool{Name: "list_notes", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &no}}, true},
		{&mcp.Tool{Name: "write_note"}, false},
		{&mcp.Tool{Name: "note", Description: "Deletes the note at path."}, false},
		{&mcp.Tool{Name: "open", Description: "Opens a note and runs its code blocks."}, false},
	} {
		if got := MayCall(tc.tool); got != tc.want {
			t.Errorf("MayCall(%s %q) = %v, want %v", tc.tool.Name, tc.tool.Description, got, tc.want)
		}
	}
}
