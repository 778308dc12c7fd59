package harness

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ourMatch and ourResult are this repository's result shape. Other servers
// are only assumed to have a tool search_notes taking "query"; when their
// structuredContent does not look like this, checks fall back to text.
type ourMatch struct {
	File    string `json:"file"`
	NoteID  string `json:"note_id"`
	Line    int    `json:"line"`
	Passage string `json:"passage"`
	Clipped bool   `json:"clipped"`
}

type ourSkip struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

type ourResult struct {
	Query       string     `json:"query"`
	Matches     []ourMatch `json:"matches"`
	MatchesNull bool       `json:"-"`
	Truncated   bool       `json:"truncated"`
	Message     string     `json:"message"`
	Skipped     []ourSkip  `json:"skipped"`
	HasSkipped  bool       `json:"-"`
	HasTrunc    bool       `json:"-"`
}

// ShapeFields names the structuredContent fields some checks read.
const ShapeFields = "structuredContent.matches[].file/.passage/.note_id, .truncated, .skipped[].file"

// parseOurShape reports whether a tool result carries this repository's
// structuredContent shape, and decodes it.
func parseOurShape(res *mcp.CallToolResult) (*ourResult, bool) {
	if res == nil || res.StructuredContent == nil {
		return nil, false
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) != nil {
		return nil, false
	}
	raw, ok := top["matches"]
	if !ok {
		return nil, false
	}
	out := &ourResult{}
	if string(raw) == "null" {
		out.MatchesNull = true
	} else {
		var elems []map[string]json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			return nil, false
		}
		for _, e := range elems {
			if _, ok := e["file"]; !ok {
				return nil, false
			}
			if _, ok := e["passage"]; !ok {
				return nil, false
			}
		}
	}
	if json.Unmarshal(b, out) != nil {
		return nil, false
	}
	_, out.HasSkipped = top["skipped"]
	_, out.HasTrunc = top["truncated"]
	return out, true
}

// replyTexts gathers every piece of text a tool result carries: content
// blocks, strings inside content that is JSON, and strings inside
// structuredContent.
func replyTexts(res *mcp.CallToolResult) []string {
	if res == nil {
		return nil
	}
	var out []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			out = append(out, expandTexts(t.Text)...)
		}
	}
	if res.StructuredContent != nil {
		out = append(out, jsonStrings(normalizeJSON(res.StructuredContent))...)
	}
	return out
}

func normalizeJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// listedItems returns non-empty arrays found under result-like keys in JSON
// text or structuredContent (for servers with other shapes).
var resultKeyRe = regexp.MustCompile(`(?i)match|result|passage|hit|item|snippet|excerpt`)

func nonEmptyResultArrays(res *mcp.CallToolResult) []string {
	var found []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if arr, ok := e.([]any); ok && len(arr) > 0 && resultKeyRe.MatchString(k) {
					found = append(found, k)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	if res == nil {
		return nil
	}
	if res.StructuredContent != nil {
		walk(normalizeJSON(res.StructuredContent))
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			var v any
			if json.Unmarshal([]byte(t.Text), &v) == nil {
				walk(v)
			}
		}
	}
	return found
}

// firstText returns the first text content block, if any.
func firstText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

func containsAny(texts []string, sub string) bool {
	for _, t := range texts {
		if strings.Contains(t, sub) {
			return true
		}
	}
	return false
}
