package checks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMayCall: a tool is called only when neither its words nor its
// annotations say it may change something; its words say so in any of
// the usual forms of a name, and an annotation never outvotes them.
func TestMayCall(t *testing.T) {
	yes, no := true, false
	ro := func(destructive *bool) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: destructive}
	}
	for _, tc := range []struct {
		tool *mcp.Tool
		want bool
	}{
		{&mcp.Tool{Name: "read_note", Description: "Read one note by its path."}, true},
		{&mcp.Tool{Name: "getNote", Description: "Returns the text of a note."}, true},
		{&mcp.Tool{Name: "list-notes", Description: "Lists the notes in a folder, with their sizes."}, true},
		{&mcp.Tool{Name: "read_note", Annotations: ro(nil)}, true},
		{&mcp.Tool{Name: "read_note", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false}}, false},
		{&mcp.Tool{Name: "read_note", Annotations: &mcp.ToolAnnotations{Title: "Read"}}, false},
		{&mcp.Tool{Name: "read_note", Annotations: ro(&yes)}, false},
		{&mcp.Tool{Name: "list_notes", Annotations: ro(&no)}, true},
		// The words outvote a read-only annotation.
		{&mcp.Tool{Name: "regex_search_and_replace", Annotations: ro(&no)}, false},
		{&mcp.Tool{Name: "tidy", Description: "Rewrites every note in place.", Annotations: ro(nil)}, false},
		// The words of the brief, in names of every style.
		{&mcp.Tool{Name: "write_note"}, false},
		{&mcp.Tool{Name: "note", Description: "Deletes the note at path."}, false},
		{&mcp.Tool{Name: "open", Description: "Opens a note and runs its code blocks."}, false},
		{&mcp.Tool{Name: "find_and_replace"}, false},
		{&mcp.Tool{Name: "copyNote"}, false},
		{&mcp.Tool{Name: "ExportVault"}, false},
		{&mcp.Tool{Name: "import-notes"}, false},
		{&mcp.Tool{Name: "merge_notes"}, false},
		{&mcp.Tool{Name: "addTag"}, false},
		{&mcp.Tool{Name: "attach_file"}, false},
		{&mcp.Tool{Name: "convert_to_pdf"}, false},
		{&mcp.Tool{Name: "standardise_headings"}, false},
		{&mcp.Tool{Name: "StandardizeHeadings"}, false},
		{&mcp.Tool{Name: "fix-links"}, false},
		{&mcp.Tool{Name: "split_note"}, false},
		{&mcp.Tool{Name: "mark_done"}, false},
		{&mcp.Tool{Name: "switch_vault"}, false},
		{&mcp.Tool{Name: "notes.move"}, false},
		{&mcp.Tool{Name: "exec"}, false},
		{&mcp.Tool{Name: "HTMLExporter"}, false},
		{&mcp.Tool{Name: "note", Description: "Copies the note to another folder."}, false},
		{&mcp.Tool{Name: "note", Description: "Splitting a note at its headings."}, false},
		{&mcp.Tool{Name: "note", Description: "Marked notes are moved to the archive."}, false},
		{&mcp.Tool{Name: "note", Description: "Switches the active vault."}, false},
		{&mcp.Tool{Name: "note", Description: "Conversion of a note to HTML."}, false},
		{&mcp.Tool{Name: "note", Description: "Runs a query."}, false},
		{&mcp.Tool{Name: "note", Description: "Running totals are added."}, false},
		// Words that may or may not say so: not called either.
		{&mcp.Tool{Name: "list_tags"}, false},
		{&mcp.Tool{Name: "note", Description: "Notes sorted by name."}, false},
		// A word that holds a change word inside it is not one.
		{&mcp.Tool{Name: "markdown_outline", Description: "Returns the headings of a markdown note as an outline."}, true},
		{&mcp.Tool{Name: "prefix_search", Description: "Finds notes whose names begin with a prefix."}, true},
	} {
		if got := MayCall(tc.tool); got != tc.want {
			t.Errorf("MayCall(%s %q) = %v, want %v", tc.tool.Name, tc.tool.Description, got, tc.want)
		}
	}
}

// TestSplitWords: names of every style split into their words.
func TestSplitWords(t *testing.T) {
	for in, want := range map[string][]string{
		"regex_search_and_replace": {"regex", "search", "and", "replace"},
		"writeFile":                {"write", "File"},
		"HTMLExporter":             {"HTML", "Exporter"},
		"switch-vault":             {"switch", "vault"},
		"notes.move v2":            {"notes", "move", "v"},
		"Crème brûlée":             {"Crème", "brûlée"},
	} {
		if diff := cmp.Diff(want, splitWords(in)); diff != "" {
			t.Errorf("splitWords(%q) (-want +got):\n%s", in, diff)
		}
	}
}
