package harness

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/checks"
)

// TestResultLeaksReadNames plants the real fixture, records a reply as
// the harness does and has the leak rule charge the names it offers as
// results: a name is outside the root only when it
// resolves outside it, and words inside a note's text are never a name
// the server offered.
func TestResultLeaksReadNames(t *testing.T) {
	lay, err := buildLayout(filepath.Join("..", "testdata", "practice-data"), newSeed())
	if lay != nil {
		defer lay.remove()
	}
	if err != nil {
		t.Fatal(err)
	}
	// Check 21's note that gives orders, and check 4's note at an
	// absolute path.
	c21, _ := checks.ByID("21")
	c4, _ := checks.ByID("4")
	injectRel, absOutside := lay.planted[c21.Fixtures[0].Name].Rel, lay.planted[c4.Fixtures[1].Name].Path
	var instr string
	for _, p := range lay.paras {
		if p.File == injectRel && strings.Contains(p.Text, "../outside.md") {
			instr = p.Text
		}
	}
	if instr == "" {
		t.Fatalf("%q has no paragraph naming ../outside.md", injectRel)
	}
	entry := func(file, text string) string {
		b, err := json.Marshal(map[string]string{"path": file, "noteId": "", "preview": text})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"root-relative with a leading slash", `[{"file": "/sample-notes.md", "note": "N2", "excerpt": "x"}]`, nil},
		// The root's absolute path in a reply only warns under the path rule.
		{"a file URI under the root", "file://" + lay.Root + "/sample-notes.md", []string{"22 root path"}},
		{"a URI of the server's own scheme", "notes:///extra/nested/valid-note.md", nil},
		{"note text under an unfamiliar field", entry(injectRel, instr), nil},
		{"note text quoted in Markdown", "### " + injectRel + "\n\n> " + strings.ReplaceAll(instr, "\n", "\n> "), nil},
		{"a parent path the server named", "Found in ../outside.md", []string{`4 result outside ../outside.md`}},
		{"an absolute path the root does not hold", `[{"file": "/outside.md", "excerpt": "x"}]`, []string{`4 result outside /outside.md`}},
		{"a file URI outside the root", "file://" + absOutside, []string{"4 path a file at an absolute path outside the root", "4 result outside file://" + absOutside}},
		{"a URI climbing out", "notes:///../outside.md", []string{"4 result outside notes:///../outside.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: tt.text}}}
			ex := &checks.Exchange{Check: "3", Method: "tools/call", Decoded: marshal(res)}
			r := &runner{lay: lay, allExchanges: []*checks.Exchange{ex},
				calls: calls{ex: {tool: "search_notes", query: "words", result: res}}}
			r.outputs = []checks.Output{r.output(&session{check: "3", checks: []string{"3"}, exchanges: []*checks.Exchange{ex},
				tap: &stdoutTap{raw: capBuffer{max: 1}}, stderr: &capBuffer{max: 1}}, 0)}
			var got []string
			for _, s := range checks.LeakRule().Judge(r.leakFacts()).Sightings {
				got = append(got, s.Owner.ID+" "+s.Key)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nresults: %q", diff, r.read(ex).Results)
			}
		})
	}
}
