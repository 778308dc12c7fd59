package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/search"
)

// The tool's contract is written three times: the input and output schemas
// in search_notes.go, search.Result (what is really returned) and the
// limits in package search. The tests below tie them together.

// listedTool returns search_notes as tools/list gives it to a client.
func listedTool(t *testing.T, cs *mcp.ClientSession) *mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "search_notes" {
		t.Fatalf("tools/list gave %d tools; want search_notes alone", len(res.Tools))
	}
	return res.Tools[0]
}

// resolve compiles a schema as a client received it.
func resolve(t *testing.T, schema any) *jsonschema.Resolved {
	t.Helper()
	data, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return rs
}

// asJSON returns v decoded from JSON into plain maps and slices.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOutputSchemaMatchesResult: the hand-written output schema describes
// exactly the fields of search.Result (names, types, required and optional
// ones, no others), and its bounds are package search's limits.
func TestOutputSchemaMatchesResult(t *testing.T) {
	var written map[string]any
	if err := json.Unmarshal([]byte(outputSchema), &written); err != nil {
		t.Fatal(err)
	}
	// The bounds, then the shape.
	props := func(m any, key string) map[string]any {
		return m.(map[string]any)["properties"].(map[string]any)[key].(map[string]any)
	}
	bounds := []struct {
		name      string
		got, want any
	}{
		{"matches.maxItems", props(written, "matches")["maxItems"], float64(search.MaxMatches)},
		{"skipped.maxItems", props(written, "skipped")["maxItems"], float64(search.MaxSkipped)},
		{"matches.items.line.minimum", props(props(written, "matches")["items"], "line")["minimum"], float64(1)},
		{"clipped says the passage limit", strings.Contains(props(props(written, "matches")["items"], "clipped")["description"].(string), fmt.Sprintf("%d,%03d bytes", search.MaxPassage/1000, search.MaxPassage%1000)), true},
	}
	for _, b := range bounds {
		if b.got != b.want {
			t.Errorf("output schema %s is %v; want %v", b.name, b.got, b.want)
		}
	}
	derived, err := jsonschema.For[search.Result](nil)
	if err != nil {
		t.Fatal(err)
	}
	// For allows null for a slice; Run always returns lists, and the
	// written schema says so.
	if diff := cmp.Diff(normaliseSchema(asJSON(t, derived)), normaliseSchema(written)); diff != "" {
		t.Errorf("the output schema and search.Result differ (-derived from search.Result +written):\n%s", diff)
	}
}

// normaliseSchema keeps only what jsonschema.For derives from a Go type
// (type, properties, items, required, additionalProperties), with
// ["null","array"] read as "array".
func normaliseSchema(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, x := range m {
		switch k {
		case "type":
			if l, ok := x.([]any); ok && len(l) == 2 && l[0] == "null" {
				x = l[1]
			}
			out[k] = x
		case "items":
			out[k] = normaliseSchema(x)
		case "properties":
			ps := map[string]any{}
			for name, p := range x.(map[string]any) {
				ps[name] = normaliseSchema(p)
			}
			out[k] = ps
		case "required", "additionalProperties":
			out[k] = x
		}
	}
	return out
}

// TestInputSchemaLimits: the listed input schema accepts what the tool
// accepts and bounds the query by search.MaxQueryLen, as the description
// says.
func TestInputSchemaLimits(t *testing.T) {
	tool := listedTool(t, hStart(t, "practice-data", nil).client(""))
	rs := resolve(t, tool.InputSchema)
	tests := []struct {
		args string
		ok   bool
	}{
		{`{"query":"sign-in"}`, true},
		{`{"query":"` + strings.Repeat("é", search.MaxQueryLen) + `"}`, true},
		{`{"query":"` + strings.Repeat("é", search.MaxQueryLen+1) + `"}`, false},
		{`{"query":""}`, false},
		{`{}`, false},
		{`{"query":"a","root":"/"}`, false},
		{`{"query":1}`, false},
	}
	for _, tt := range tests {
		var args any
		json.Unmarshal([]byte(tt.args), &args)
		if err := rs.Validate(args); (err == nil) != tt.ok {
			t.Errorf("input schema on %.60s: %v; want valid %v", tt.args, err, tt.ok)
		}
	}
	if want := fmt.Sprintf("up to %d characters", search.MaxQueryLen); !strings.Contains(tool.Description, want) {
		t.Errorf("the description does not say %q: %s", want, tool.Description)
	}
	if want := fmt.Sprintf("up to %d passages", search.MaxMatches); !strings.Contains(tool.Description, want) {
		t.Errorf("the description does not say %q: %s", want, tool.Description)
	}
}

// TestResultsMatchOutputSchema runs real searches that between them give
// every field of a result (a note ID and none, a clipped passage, more
// matches than are returned, skipped files) and validates each structured
// result against the output schema tools/list gives. A result that breaks
// the schema is refused, so the check can fail.
func TestResultsMatchOutputSchema(t *testing.T) {
	files := map[string]string{
		"ids.md":      "# N7 · Title\n\nneedle with an id\n",
		"plain.md":    "needle without an id\n",
		"long.md":     "needle " + strings.Repeat("long paragraph ", 200) + "\n",
		"big.md":      strings.Repeat("x", 200<<10),
		"binary.md":   "needle \x00\xff\n",
		"sub/more.md": strings.Repeat("needle again\n\n", 2*search.MaxMatches),
	}
	cs := hStart(t, hTree(t, files), nil).client("")
	rs := resolve(t, listedTool(t, cs).OutputSchema)
	seen := map[string]bool{}
	for _, q := range []string{"needle", "long paragraph", "absent phrase"} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": q}})
		if err != nil || res.IsError {
			t.Fatalf("%q: %+v, %v", q, res, err)
		}
		got := asJSON(t, res.StructuredContent)
		if err := rs.Validate(got); err != nil {
			t.Errorf("%q: the result breaks the output schema: %v", q, err)
		}
		var r search.Result
		if err := decodeStructured(res, &r); err != nil {
			t.Fatal(err)
		}
		seen["truncated"] = seen["truncated"] || r.Truncated
		seen["skipped"] = seen["skipped"] || len(r.Skipped) > 0
		seen["no matches"] = seen["no matches"] || len(r.Matches) == 0
		for _, m := range r.Matches {
			seen["clipped"] = seen["clipped"] || m.Clipped
			seen["note_id"] = seen["note_id"] || m.NoteID != ""
			seen["no note_id"] = seen["no note_id"] || m.NoteID == ""
		}
		// The same result broken: the schema must refuse it.
		broken := got.(map[string]any)
		delete(broken, "message")
		if rs.Validate(broken) == nil {
			t.Errorf("%q: a result without its message passes the schema", q)
		}
	}
	for _, field := range []string{"truncated", "skipped", "no matches", "clipped", "note_id", "no note_id"} {
		if !seen[field] {
			t.Errorf("no search gave a result with %s; the test does not cover it", field)
		}
	}
	var tooMany any
	json.Unmarshal([]byte(`{"query":"q","matches":[`+strings.Repeat(`{"file":"a","line":1,"passage":"p","clipped":false},`, search.MaxMatches)+`{"file":"a","line":1,"passage":"p","clipped":false}],"truncated":true,"message":"m","skipped":[]}`), &tooMany)
	if rs.Validate(tooMany) == nil {
		t.Errorf("a result with %d matches passes the schema", search.MaxMatches+1)
	}
}
