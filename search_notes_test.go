package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/search"
)

// TestResultMessage pins the one-line message of each kind of result: how
// many passages matched, whether the list was cut, and how much of the
// folder was not searched.
func TestResultMessage(t *testing.T) {
	five := make([]search.Match, 5)
	tests := []struct {
		name string
		res  search.Result
		cov  search.Coverage
		want string
	}{
		{"none", search.Result{Query: "coffee"}, search.Coverage{NotSearched: 2},
			`No notes matched "coffee". 2 files were not searched.`},
		{"one", search.Result{Query: "tea", Matches: five[:1]}, search.Coverage{NotSearched: 1},
			`1 passage matched "tea". 1 file was not searched.`},
		{"several", search.Result{Query: "tea", Matches: five}, search.Coverage{NotSearched: 2},
			`5 passages matched "tea". 2 files were not searched.`},
		{"cut", search.Result{Query: "tea", Matches: make([]search.Match, search.MaxMatches), Truncated: true}, search.Coverage{},
			`Showing the first 10 passages that matched "tea"; more matched.`},
		{"many not searched", search.Result{Query: "tea"}, search.Coverage{NotSearched: search.MaxSkipped + 5},
			`No notes matched "tea". 25 files were not searched.`},
		{"out of time", search.Result{Query: "amber lamp", Matches: five[:1]}, search.Coverage{NotSearched: 3, OutOfTime: true},
			`1 passage matched "amber lamp". 3 files were not searched. The search ran out of time before every note was read.`},
		{"too large", search.Result{Query: "tea"}, search.Coverage{Incomplete: true},
			`No notes matched "tea". The folder is larger than the walk limits (50000 entries, 16 levels deep); some files were not searched.`},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, resultMessage(&tt.res, tt.cov)); diff != "" {
			t.Errorf("%s: message (-want +got):\n%s", tt.name, diff)
		}
	}
}

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
	tool := listedTool(t, startServer(t, "practice-data", nil).client(""))
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
	cs := startServer(t, noteTree(t, files), nil).client("")
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

// topLevelKeys lists the keys of a JSON object in order, repeats included,
// or fails when data is not exactly one JSON object. It is written apart
// from decodeQuery so that the two can be compared.
func topLevelKeys(data []byte) ([]string, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return nil, errors.New("not an object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var keys []string
	depth := 0
	expectKey := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return keys, nil
		}
		if err != nil {
			return nil, err
		}
		switch tok {
		case json.Delim('{'):
			depth++
			expectKey = depth == 1
			continue
		case json.Delim('['):
			depth++
			continue
		case json.Delim('}'), json.Delim(']'):
			depth--
			expectKey = depth == 1
			continue
		}
		if depth == 1 && expectKey {
			keys = append(keys, tok.(string))
			expectKey = false
			continue
		}
		if depth == 1 {
			expectKey = true
		}
	}
}

// FuzzDecodeQuery: decodeQuery never panics, accepts exactly the JSON
// objects whose only key is "query", given once, with a string value, and
// refuses everything else with a short errBadArguments error.
func FuzzDecodeQuery(f *testing.F) {
	for _, s := range []string{
		`{"query":"sign-in"}`,
		`{"query":""}`,
		` { "query" : "a" } `,
		`{"query":"a","query":"b"}`,
		`{"query":"a","\u0071uery":"b"}`,
		`{"Query":"a"}`,
		`{"query":"a","limit":3}`,
		`{"query":1}`,
		`{"query":null}`,
		`{"query":["a"]}`,
		`{"query":{"query":"a"}}`,
		`{"query":"\ud800"}`,
		`{"query":"a\u0000b"}`,
		"{\"query\":\"\xff\"}",
		`{"query":"a"}{"query":"b"}`,
		`{"query":"a"} x`,
		`{"query":"a"`,
		`{"query":"a",}`,
		`{}`,
		`[]`,
		`null`,
		`"query"`,
		``,
		`   `,
		`{"` + strings.Repeat("k", 500) + `":1}`,
		`{"query":"` + strings.Repeat("x", 300) + `"}`,
		`{"query":"İſ\u212Aß"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		q, err := decodeQuery(args)
		keys, kerr := topLevelKeys(args)
		wellFormed := kerr == nil && len(keys) == 1 && keys[0] == "query"
		var val any
		if wellFormed {
			var obj map[string]json.RawMessage
			json.Unmarshal(args, &obj)
			json.Unmarshal(obj["query"], &val)
		}
		_, isString := val.(string)
		if err != nil {
			if !errors.Is(err, errBadArguments) {
				t.Fatalf("decodeQuery(%q) failed with %v, which does not wrap errBadArguments", args, err)
			}
			if msg := err.Error(); utf8.RuneCountInString(msg) > 160 || strings.Contains(msg, "\n") {
				t.Fatalf("decodeQuery(%q): error is not one short line: %q", args, msg)
			}
			if wellFormed && isString {
				t.Fatalf("decodeQuery(%q) refused well-formed arguments: %v", args, err)
			}
			return
		}
		if !json.Valid(args) {
			t.Fatalf("decodeQuery accepted invalid JSON %q", args)
		}
		if !wellFormed {
			t.Fatalf("decodeQuery(%q) accepted arguments whose keys are %q (%v)", args, keys, kerr)
		}
		if !isString || val.(string) != q {
			t.Fatalf("decodeQuery(%q) = %q; the query is %#v", args, q, val)
		}
	})
}

func hasRepeat(keys []string) bool {
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

func TestSearchSignIn(t *testing.T) {
	cs := startServer(t, "practice-data", nil).client("")
	res := call(t, cs, map[string]any{"query": "sign-in"})
	if res.IsError {
		t.Fatalf("tool error: %s", resultText(res))
	}
	var got search.Result
	if err := decodeStructured(res, &got); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join("practice-data", "sample-notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Matches) != 1 {
		t.Fatalf("got %d matches, want 1: %+v", len(got.Matches), got.Matches)
	}
	m := got.Matches[0]
	if m.File != "sample-notes.md" || m.NoteID != "N2" || !strings.Contains(string(file), m.Passage) ||
		!strings.Contains(m.Passage, "sign-in") {
		t.Errorf("match %+v is not the N2 passage of sample-notes.md", m)
	}
	// The text block carries the same JSON as the structured content.
	if len(res.Content) != 1 {
		t.Fatalf("got %d content blocks, want 1", len(res.Content))
	}
	var fromText search.Result
	if err := json.Unmarshal([]byte(resultText(res)), &fromText); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, fromText); diff != "" {
		t.Errorf("text and structured content differ:\n%s", diff)
	}
}

func TestArgumentRefusals(t *testing.T) {
	cs := startServer(t, "practice-data", nil).client("")
	tests := []struct {
		name string
		args any
		want string
	}{
		{"missing query", json.RawMessage(`{}`), `missing required argument "query"`},
		{"null arguments", nil, `missing required argument "query"`},
		{"empty", map[string]any{"query": ""}, "query is empty"},
		{"whitespace only", map[string]any{"query": " \u3000 "}, "only whitespace"},
		{"201 characters", map[string]any{"query": strings.Repeat("x", 201)}, "201 characters long"},
		{"NUL", map[string]any{"query": "sign\x00in"}, "control character"},
		{"newline", map[string]any{"query": "sign\nin"}, "control character"},
		{"number", json.RawMessage(`{"query":42}`), "must be a string, not a number"},
		{"array", json.RawMessage(`{"query":["sign-in"]}`), "must be a string, not an array"},
		{"null query", json.RawMessage(`{"query":null}`), "must be a string, not null"},
		{"unknown key", json.RawMessage(`{"query":"sign-in","root":"/"}`), `unknown argument "root"`},
		{"duplicate key", json.RawMessage(`{"query":"a","query":"sign-in"}`), "more than once"},
		{"not an object", json.RawMessage(`["sign-in"]`), "must be a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, cs, tt.args)
			text := resultText(res)
			if !res.IsError || !strings.Contains(text, tt.want) || strings.Contains(text, "\n") {
				t.Errorf("isError=%v text=%q; want a one-line tool error containing %q", res.IsError, text, tt.want)
			}
			if res.StructuredContent != nil {
				t.Errorf("a refused call carries structured content: %v", res.StructuredContent)
			}
		})
	}
}

// The SDK passes duplicate keys through (last one wins) and treats
// "arguments": null as {}; our decoder is what refuses them. These pin the
// SDK behaviour the decoder relies on: if the SDK started rejecting or
// rewriting such arguments itself, these calls would not reach decodeQuery.
func TestDecodeQuery(t *testing.T) {
	tests := []struct {
		args, want, wantErr string
	}{
		{`{"query":"sign-in"}`, "sign-in", ""},
		{` { "query" : "a\u00e9" } `, "aé", ""},
		{`{"query":"a","query":"b"}`, "", "more than once"},
		{`{"query":"a"}{}`, "", "unexpected data"},
		{`{"query":"a"`, "", "not valid JSON"},
		{`{"Query":"a"}`, "", `unknown argument "Query"`},
		{`null`, "", "must be a JSON object"},
		{``, "", "missing required argument"},
	}
	for _, tt := range tests {
		got, err := decodeQuery(json.RawMessage(tt.args))
		switch {
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("decodeQuery(%s) = %q, %v; want %q", tt.args, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, errBadArguments)):
			t.Errorf("decodeQuery(%s) = %q, %v; want error containing %q", tt.args, got, err, tt.wantErr)
		}
	}
}

func TestNoMatch(t *testing.T) {
	cs := startServer(t, "practice-data", nil).client("")
	res := call(t, cs, map[string]any{"query": "quantum spreadsheet"})
	var got search.Result
	if err := decodeStructured(res, &got); err != nil {
		t.Fatal(err)
	}
	want := search.Result{Query: "quantum spreadsheet", Matches: []search.Match{}, Message: `No notes matched "quantum spreadsheet".`, Skipped: []search.Skipped{}}
	if diff := cmp.Diff(want, got); diff != "" || res.IsError {
		t.Errorf("isError=%v, result (-want +got):\n%s", res.IsError, diff)
	}
	if !strings.Contains(resultText(res), `"matches":[]`) {
		t.Errorf("matches is not an empty list on the wire: %s", resultText(res))
	}
}
