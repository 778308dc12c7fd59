package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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

// FuzzLine: the transport's check of one input line never panics, answers
// "Parse error" exactly when the line is not UTF-8 JSON, and passes on only
// JSON-RPC objects without repeated keys in the message or its params, whose
// request id (if any) the SDK will echo unchanged.
func FuzzLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"search_notes","arguments":{"query":"x"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1,"a":2}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":{"b":1,"b":2}}}`,
		`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-9007199254740992,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"}{}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}",
		`{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`,
		strings.Repeat(`{"a":`, 70) + `1` + strings.Repeat(`}`, 70),
		`not json`,
		`42`,
		`"x"`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		scanID(line) // any prefix of a line may be scanned for its id
		msg, rej := checkMessage(line)
		jsonOK := utf8.Valid(line) && json.Valid(line)
		if rej != nil {
			if (rej.code == codeParseError) == jsonOK {
				t.Fatalf("%q: code %d, but UTF-8 JSON: %v", line, rej.code, jsonOK)
			}
			if rej.code == codeNoReply {
				var obj map[string]json.RawMessage
				json.Unmarshal(line, &obj)
				_, method := obj["method"]
				_, result := obj["result"]
				_, errKey := obj["error"]
				if method || !(result || errKey) {
					t.Fatalf("%q: dropped without a reply, but it is not a response", line)
				}
				return
			}
			if rej.code != codeParseError && rej.code != codeInvalidRequest {
				t.Fatalf("%q: unexpected code %d", line, rej.code)
			}
			if rej.id != nil {
				var id any
				if err := json.Unmarshal(rej.id, &id); err != nil {
					t.Fatalf("%q: reply id %q is not JSON", line, rej.id)
				}
				switch v := id.(type) {
				case string:
				case float64:
					if v != float64(int64(v)) {
						t.Fatalf("%q: reply id %v is not an integer", line, v)
					}
				default:
					t.Fatalf("%q: reply id %q is not a string or a number", line, rej.id)
				}
			}
			return
		}
		if msg == nil || !jsonOK {
			t.Fatalf("%q accepted (%v) but not UTF-8 JSON", line, msg)
		}
		keys, err := topLevelKeys(line)
		if err != nil || hasRepeat(keys) {
			t.Fatalf("%q accepted with message keys %q (%v)", line, keys, err)
		}
		var obj map[string]json.RawMessage
		json.Unmarshal(line, &obj)
		if p := bytes.TrimSpace(obj["params"]); len(p) > 0 && p[0] == '{' {
			if pk, err := topLevelKeys(p); err != nil || hasRepeat(pk) {
				t.Fatalf("%q accepted with params keys %q (%v)", line, pk, err)
			}
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			var sent any
			dec := json.NewDecoder(bytes.NewReader(obj["id"]))
			dec.UseNumber()
			dec.Decode(&sent)
			back, _ := json.Marshal(req.ID.Raw())
			switch v := sent.(type) {
			case string:
				if req.ID.Raw() != v {
					t.Fatalf("%q: id %q comes back as %s", line, v, back)
				}
			case json.Number:
				if string(back) != v.String() && !(v.String() == "-0" && string(back) == "0") {
					t.Fatalf("%q: id %s comes back as %s", line, v, back)
				}
			default:
				t.Fatalf("%q: call accepted with id %s", line, obj["id"])
			}
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
