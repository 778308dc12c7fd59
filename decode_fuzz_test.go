package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

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
