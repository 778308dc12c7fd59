package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// verdict is what checkMessage decided about a line, in comparable form.
type verdict struct {
	Pass    string // the accepted message, re-encoded by the SDK
	Code    int64  // the refusal's code
	ID      string // the refusal's id as JSON; "" for null
	Dropped bool   // a bad response: not answered
}

func check(line string) verdict {
	msg, err := checkMessage([]byte(line))
	var (
		refused *refusedMessage
		dropped *droppedResponse
	)
	switch {
	case errors.As(err, &refused):
		return verdict{Code: refused.code, ID: string(refused.id)}
	case errors.As(err, &dropped):
		return verdict{Dropped: true}
	case err != nil:
		return verdict{Pass: "unexpected error " + err.Error()}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return verdict{Pass: "cannot encode: " + err.Error()}
	}
	return verdict{Pass: string(data)}
}

// TestCheckMessage pins the message check on each kind of line: what is
// passed on, and the code and id of every refusal.
func TestCheckMessage(t *testing.T) {
	const (
		parse   = jsonrpc.CodeParseError
		invalid = jsonrpc.CodeInvalidRequest
	)
	deep := strings.Repeat("[", 70) + strings.Repeat("]", 70)
	// Deeper than encoding/json's own limit (10,000 levels): still JSON.
	tooDeepForGo := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	tests := []struct {
		name, line string
		want       verdict
	}{
		// Accepted, and decoded as the SDK would.
		{"call", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, verdict{Pass: `{"jsonrpc":"2.0","id":1,"method":"ping"}`}},
		{"string id and params", ` {"params":{"a":[1,{"b":null}]}, "method":"tools/list","id":"x","jsonrpc":"2.0"} `,
			verdict{Pass: `{"jsonrpc":"2.0","id":"x","method":"tools/list","params":{"a":[1,{"b":null}]}}`}},
		{"escaped version", `{"jsonrpc":"2\u002e0","id":-0,"method":"ping"}`, verdict{Pass: `{"jsonrpc":"2.0","id":0,"method":"ping"}`}},
		{"largest id", `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, verdict{Pass: `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`}},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, verdict{Pass: `{"jsonrpc":"2.0","method":"notifications/initialized"}`}},
		{"result", `{"jsonrpc":"2.0","id":3,"result":{"x":1}}`, verdict{Pass: `{"jsonrpc":"2.0","id":3,"result":{"x":1}}`}},
		{"error reply", `{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}`, verdict{Pass: `{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}`}},
		{"unknown key", `{"jsonrpc":"2.0","id":1,"method":"ping","x":1}`, verdict{Pass: `{"jsonrpc":"2.0","id":1,"method":"ping"}`}},

		// Not JSON: -32700, with the id only when it was read whole
		// before the fault.
		{"not JSON", `not json`, verdict{Code: parse}},
		{"cut short", `{"jsonrpc":"2.0","id":5,"method":"ping"`, verdict{Code: parse, ID: "5"}},
		{"two values", `{"jsonrpc":"2.0","id":5,"method":"ping"}{"a":1}`, verdict{Code: parse, ID: "5"}},
		{"trailing garbage", `{"jsonrpc":"2.0","id":"g","method":"ping"} x`, verdict{Code: parse, ID: `"g"`}},
		{"trailing comma", `{"jsonrpc":"2.0","id":5,"method":"ping",}`, verdict{Code: parse, ID: "5"}},
		{"fault after the id", `{"jsonrpc":"2.0","id":5,"method":ping}`, verdict{Code: parse, ID: "5"}},
		{"fault right after the id", `{"jsonrpc":"2.0","id":5x,"method":"ping"}`, verdict{Code: parse}},
		{"id after the fault", `{"jsonrpc":"2.0","method":ping,"id":5}`, verdict{Code: parse}},
		{"bad id before the fault", `{"jsonrpc":"2.0","id":1.5,"method":ping}`, verdict{Code: parse}},
		{"leading zero", `{"jsonrpc":"2.0","id":05,"method":"ping"}`, verdict{Code: parse}},
		{"array", `[1,`, verdict{Code: parse}},
		{"invalid UTF-8 after the id", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"\xff\"}", verdict{Code: parse, ID: "5"}},
		{"overlong form after the id", "{\"jsonrpc\":\"2.0\",\"id\":\"o\",\"method\":\"ping\",\"params\":{\"a\":\"\xc0\xaf\"}}", verdict{Code: parse, ID: `"o"`}},
		{"encoded surrogate after the id", "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"\xed\xa0\x80\"}", verdict{Code: parse, ID: "6"}},
		{"invalid UTF-8 right after the id", "{\"jsonrpc\":\"2.0\",\"id\":5\xc0\xaf,\"method\":\"ping\"}", verdict{Code: parse}},
		{"invalid UTF-8 in the id", "{\"jsonrpc\":\"2.0\",\"id\":\"a\xed\xa0\x80\",\"method\":\"ping\"}", verdict{Code: parse}},
		{"invalid UTF-8 before the id", "{\"jsonrpc\":\"2.0\",\"method\":\"\xff\",\"id\":5}", verdict{Code: parse}},
		{"syntax error, then invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":5,,\"method\":\"\xff\"}", verdict{Code: parse}},
		{"repeated id, then invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":5,\"id\":6,\"method\":\"\xff\"}", verdict{Code: parse}},
		{"NUL byte", "{\"jsonrpc\":\"2.0\",\x00\"id\":5}", verdict{Code: parse}},
		{"empty", ``, verdict{Code: parse}},
		{"form feed", "\f", verdict{Code: parse}},
		{"vertical tab", "\v", verdict{Code: parse}},
		{"no-break space", "\u00a0", verdict{Code: parse}},
		{"ideographic space", "\u3000", verdict{Code: parse}},
		{"carriage return", "\r", verdict{Code: parse}},
		{"too deep for Go, cut short", `{"jsonrpc":"2.0","id":5,"method":"ping","params":` + strings.Repeat("[", 10001) + `}`, verdict{Code: parse, ID: "5"}},

		// JSON, but not a message we accept: -32600, with the id when the
		// message has one usable id.
		{"number", `42`, verdict{Code: invalid}},
		{"batch", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, verdict{Code: invalid}},
		{"empty object", `{}`, verdict{Code: invalid}},
		{"wrong version", `{"jsonrpc":"1.0","id":5,"method":"ping"}`, verdict{Code: invalid, ID: "5"}},
		{"no version", `{"id":"x","method":"ping"}`, verdict{Code: invalid, ID: `"x"`}},
		{"method not a string", `{"jsonrpc":"2.0","id":5,"method":7}`, verdict{Code: invalid, ID: "5"}},
		{"no method or result", `{"jsonrpc":"2.0","id":5}`, verdict{Code: invalid, ID: "5"}},
		{"repeated method", `{"jsonrpc":"2.0","id":5,"method":"ping","method":"tools/list"}`, verdict{Code: invalid, ID: "5"}},
		{"repeated id", `{"jsonrpc":"2.0","id":5,"method":"ping","id":6}`, verdict{Code: invalid}},
		{"repeated escaped key", `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":1,"\u0061":2}}`, verdict{Code: invalid, ID: "5"}},
		{"repeated key before the id", `{"jsonrpc":"2.0","method":"ping","params":{"a":1,"a":2},"id":5}`, verdict{Code: invalid, ID: "5"}},
		{"repeated tool name", `{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"search_notes","name":"other"}}`, verdict{Code: invalid, ID: `"c"`}},
		{"too deep", `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":` + deep + `}}`, verdict{Code: invalid, ID: "5"}},
		{"too deep before the id", `{"jsonrpc":"2.0","method":"ping","params":` + deep + `,"id":"d"}`, verdict{Code: invalid, ID: `"d"`}},
		{"too deep for Go", `{"jsonrpc":"2.0","method":"ping","params":` + tooDeepForGo + `,"id":7}`, verdict{Code: invalid, ID: "7"}},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, verdict{Code: invalid}},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, verdict{Code: invalid}},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, verdict{Code: invalid}},
		{"huge id", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, verdict{Code: invalid}},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, verdict{Code: invalid}},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, verdict{Code: invalid}},

		// Bad responses are dropped, never answered.
		{"response with null id", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, verdict{Dropped: true}},
		{"repeated result", `{"jsonrpc":"2.0","id":7,"result":{},"result":{}}`, verdict{Dropped: true}},
		{"old response", `{"jsonrpc":"1.0","id":7,"result":{}}`, verdict{Dropped: true}},
		{"error not an object", `{"jsonrpc":"2.0","id":7,"error":"no"}`, verdict{Dropped: true}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, check(tt.line)); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestCheckLongMessage: the refusal of an over-long message names its id
// when the id comes early and is complete.
func TestCheckLongMessage(t *testing.T) {
	tests := []struct{ prefix, wantID string }{
		{`{"jsonrpc":"2.0","id":"long","method":"ping","params":{"x":"aaaa`, `"long"`},
		{`{"jsonrpc":"2.0","id":12345,"method":"ping"`, `12345`},
		{`{"jsonrpc":"2.0","id":123`, ``}, // the number may go on
		{`{"jsonrpc":"2.0","method":"ping","params":{"x":"aaaa`, ``},
		{`{"jsonrpc":"2.0","id":5,"id":6,"method":"ping"`, ``},
		{"[" + `{"jsonrpc":"2.0","id":5`, ``},
		{`{"jsonrpc":"2.0","id":"` + "\u00e9"[:1], ``},
	}
	for _, tt := range tests {
		r := checkLongMessage([]byte(tt.prefix))
		if r.code != jsonrpc.CodeInvalidRequest || string(r.id) != tt.wantID || !strings.Contains(r.message, "longer than") {
			t.Errorf("%s: got %d %q %q; want -32600 with id %q", tt.prefix, r.code, r.id, r.message, tt.wantID)
		}
	}
}

// nesting is how deeply arrays and objects nest in a JSON text.
func nesting(data []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString:
			inString = b != '"'
		case b == '"':
			inString = true
		case b == '[' || b == '{':
			depth++
			deepest = max(deepest, depth)
		case b == ']' || b == '}':
			depth--
		}
	}
	return deepest
}

// usableID returns the top-level "id" of a JSON object, if it has exactly
// one and it is a string or an integer within ±2^53, as JSON.
func usableID(line []byte) (string, bool) {
	keys, err := topLevelKeys(line)
	if err != nil {
		return "", false
	}
	n := 0
	for _, k := range keys {
		if k == "id" {
			n++
		}
	}
	if n != 1 {
		return "", false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil {
		return "", false
	}
	raw := bytes.TrimSpace(obj["id"])
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return "", false
	}
	switch v := v.(type) {
	case string:
		b, _ := json.Marshal(v)
		return string(b), true
	case json.Number:
		i, err := strconv.ParseInt(v.String(), 10, 64)
		if err != nil || i < -(1<<53) || i > 1<<53 {
			return "", false
		}
		return strconv.FormatInt(i, 10), true
	}
	return "", false
}

// FuzzLine: the message check never panics, answers Parse error exactly
// when the line is not UTF-8 JSON (naming at most an id written in it),
// answers an Invalid Request with the line's id whenever it has one usable
// id, drops only responses, and passes
// on only JSON-RPC objects without repeated keys in the message or its
// params, whose request id (if any) the SDK will echo unchanged.
func FuzzLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"search_notes","arguments":{"query":"x"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1,"a":2}}`,
		`{"jsonrpc":"2.0","method":"ping","params":{"a":1,"a":2},"id":1}`,
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
		`{"jsonrpc":"2.0","method":"ping","params":` + strings.Repeat(`[`, 70) + strings.Repeat(`]`, 70) + `,"id":3}`,
		"\f", "\u00a0", "\r",
		`not json`,
		`42`,
		`"x"`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		scanID(line) // any prefix of a line may be scanned for its id
		msg, err := checkMessage(line)
		jsonOK := utf8.Valid(line) && json.Valid(line)
		var (
			refused *refusedMessage
			dropped *droppedResponse
		)
		switch {
		case errors.As(err, &dropped):
			var obj map[string]json.RawMessage
			json.Unmarshal(line, &obj)
			_, method := obj["method"]
			_, result := obj["result"]
			_, errKey := obj["error"]
			if !jsonOK || method || !(result || errKey) {
				t.Fatalf("%q: dropped without a reply, but it is not a response", line)
			}
			return
		case errors.As(err, &refused):
			tooDeepForGo := !jsonOK && refused.code == jsonrpc.CodeInvalidRequest && nesting(line) > 10000
			if (refused.code == jsonrpc.CodeParseError) == jsonOK && !tooDeepForGo {
				t.Fatalf("%q: code %d, but UTF-8 JSON: %v", line, refused.code, jsonOK)
			}
			if refused.code != jsonrpc.CodeParseError && refused.code != jsonrpc.CodeInvalidRequest {
				t.Fatalf("%q: unexpected code %d", line, refused.code)
			}
			if refused.code == jsonrpc.CodeParseError && refused.id != nil && !bytes.Contains(line, refused.id) && refused.id[0] != '"' {
				t.Fatalf("%q: a Parse error names id %s, which is not in the line", line, refused.id)
			}
			if refused.code == jsonrpc.CodeInvalidRequest && jsonOK {
				want, ok := usableID(line)
				if ok && string(refused.id) != want {
					t.Fatalf("%q: answered with id %q; the message's id is %s", line, refused.id, want)
				}
				if !ok && refused.id != nil {
					t.Fatalf("%q: answered with id %s, but the message has no usable id", line, refused.id)
				}
			}
			return
		case err != nil:
			t.Fatalf("%q: unexpected error %v", line, err)
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
		// What is passed on is what the SDK itself would decode.
		sdk, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			t.Fatalf("%q accepted, but the SDK cannot decode it: %v", line, err)
		}
		got, _ := jsonrpc.EncodeMessage(msg)
		want, _ := jsonrpc.EncodeMessage(sdk)
		if !bytes.Equal(got, want) {
			t.Fatalf("%q: passed on as %s; the SDK decodes %s", line, got, want)
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			want, ok := usableID(line)
			if back, _ := json.Marshal(req.ID.Raw()); !ok || string(back) != want {
				t.Fatalf("%q: id %s comes back as %s", line, obj["id"], back)
			}
		}
	})
}

// A request with a byte that is not UTF-8 after its id (an overlong form,
// an encoded surrogate) is answered with -32700 under that id, over stdio
// and HTTP alike, and the session goes on.
func TestInvalidUTF8AfterIDKeepsID(t *testing.T) {
	lines := []struct {
		line string
		id   any // as decoded from the reply
	}{
		{"{\"jsonrpc\":\"2.0\",\"id\":55,\"method\":\"tools/call\",\"params\":{\"name\":\"search_notes\",\"arguments\":{\"query\":\"a\xc0\xafb\"}}}", float64(55)},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"ping\",\"params\":{\"x\":\"\xed\xa0\x80\"}}", "s"},
		{"{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"x\":\"\xed\xa0\x80\"},\"id\":7}", nil}, // the id comes after the fault
	}
	t.Run("stdio", func(t *testing.T) {
		s := startServer(t, noteTree(t, manyNotes(1)), nil)
		s.initialize()
		for _, tt := range lines {
			s.send(tt.line)
			msg := s.next()
			errObj, _ := msg["error"].(map[string]any)
			if msg["id"] != tt.id || errObj == nil || errObj["code"] != float64(jsonrpc.CodeParseError) {
				t.Errorf("%q answered with %v; want -32700 under id %v", tt.line, msg, tt.id)
			}
		}
		s.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
		if msg := s.next(); msg["id"] != "after" || msg["result"] == nil {
			t.Errorf("ping after the bad lines answered with %v", msg)
		}
	})
	t.Run("http", func(t *testing.T) {
		endpoint := httpNotes(t)
		for _, tt := range lines {
			status, body := postMessage(t, endpoint, tt.line)
			id, _ := json.Marshal(tt.id)
			want := `{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32700,"message":"Parse error: the message is not valid UTF-8"}}`
			if status != http.StatusBadRequest || body != want {
				t.Errorf("%q: status %d, body %q; want 400 with %s", tt.line, status, body, want)
			}
		}
	})
}
