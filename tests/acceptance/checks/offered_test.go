package checks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOfferedURI: check 3 reads only a URI the server offered, from
// resources/list, a resource link in its reply or a template, and none
// when it offered none (no practice-notes:/// guess).
func TestOfferedURI(t *testing.T) {
	const rel = "extra/nested/valid-note.md"
	other := []*mcp.Resource{{URI: "notes:///sample-notes.md"}}
	tests := []struct {
		name      string
		list      []*mcp.Resource
		templates []*mcp.ResourceTemplate
		reply     *mcp.CallToolResult
		want      [2]string
	}{
		{"listed", []*mcp.Resource{{URI: "notes:///sample-notes.md"}, {URI: "notes:///" + rel}}, nil, nil,
			[2]string{"notes:///" + rel, "resources/list"}},
		{"listed without the fixture, nothing else", other, nil, nil, [2]string{}},
		{"nothing listed", nil, nil, &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: rel}}}, [2]string{}},
		{"a link in the reply", other, nil, &mcp.CallToolResult{Content: []mcp.Content{&mcp.ResourceLink{URI: "vault://" + rel, Name: "valid-note.md"}}},
			[2]string{"vault://" + rel, "a resource link in the search reply"}},
		{"a reserved-expansion template", other, []*mcp.ResourceTemplate{{URITemplate: "notes:///{+path}"}}, nil,
			[2]string{"notes:///" + rel, "the template notes:///{+path}"}},
		{"a simple template", other, []*mcp.ResourceTemplate{{URITemplate: "note://{name}"}}, nil,
			[2]string{"note://extra%2Fnested%2Fvalid-note.md", "the template note://{name}"}},
		{"a template with two variables", other, []*mcp.ResourceTemplate{{URITemplate: "note://{dir}/{name}"}}, nil, [2]string{}},
	}
	for _, tt := range tests {
		uri, from := offeredURI(rel, tt.list, tt.templates, tt.reply)
		if diff := cmp.Diff(tt.want, [2]string{uri, from}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
