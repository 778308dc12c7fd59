package checks

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/visible"
)

// search sends search_notes with one query.
func search(w Wire, step, query string) Exchange {
	return w.CallTool(step, "search_notes", map[string]any{"query": query})
}

// read reads the reply of a search for query.
func (f *Facts) read(ex Exchange, query string) *Reading {
	var paras []Paragraph
	if f.Notes != nil {
		paras = f.Notes.Paras
	}
	return ReadResult(toolResult(ex), query, paras)
}

// ToolText joins the text of every content block.
func ToolText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				parts = append(parts, c.Resource.Text, string(c.Resource.Blob))
			}
		case *mcp.ResourceLink:
			parts = append(parts, c.URI, c.Name)
		}
	}
	return strings.Join(parts, "\n")
}

// quote shows an exchange as the report's evidence does: the line sent
// and the line read back, bounded.
func quote(ex Exchange) []string {
	out := []string{"   -> " + visible.Truncate(ex.In, 600)}
	switch {
	case len(ex.Out) > 0:
		out = append(out, fmt.Sprintf("   <- %s   (%d ms)", visible.Truncate(ex.Out[len(ex.Out)-1], 1500), ex.Millis))
	case ex.Error != "":
		out = append(out, fmt.Sprintf("   <- error after %d ms: %s", ex.Millis, visible.Truncate(ex.Error, 600)))
	}
	return out
}
