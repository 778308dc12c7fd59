package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Limits of one message.
const (
	// maxLineBytes is the longest message accepted, in bytes: on stdio, one
	// line without its line break.
	maxLineBytes = 1 << 20
	// maxJSONDepth is how deeply objects and arrays may nest in one message.
	// MCP messages nest a handful of levels.
	maxJSONDepth = 64
	// idScanBytes is how much of an over-long message is searched for its
	// "id", so that the error reply can name the request it refuses.
	idScanBytes = 64 << 10
)

// A refusedMessage is a message that is not passed on and is answered with
// a JSON-RPC error.
type refusedMessage struct {
	code    int64           // jsonrpc.CodeParseError or jsonrpc.CodeInvalidRequest
	message string          // the error message of the reply
	id      json.RawMessage // the request's id, or nil for null
}

func (r *refusedMessage) Error() string { return r.message }

// reply is the JSON-RPC error response to a refused message.
func (r *refusedMessage) reply() []byte {
	id := r.id
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: r.code, Message: r.message}})
	if err != nil {
		panic(err) // cannot happen: id is a checked JSON scalar
	}
	return data
}

// A droppedResponse is an unacceptable message that looks like a response
// (a "result" or "error" key and no "method"). It is logged and never
// answered: answering a response could make two peers answer each other's
// errors for ever.
type droppedResponse struct{ reason string }

func (d *droppedResponse) Error() string {
	return "dropped a response that is not acceptable: " + d.reason
}

// checkMessage decides whether data holds one acceptable JSON-RPC message
// and returns it, or returns a *refusedMessage or a *droppedResponse.
//
// A message is refused when it is not UTF-8 JSON (-32700 Parse error), or
// (-32600 Invalid Request) when it is not a JSON object (batches are not
// supported; MCP dropped them in 2025-06-18), repeats a key in the message
// or in its params (the SDK would silently keep the last one, so
// {"name":"a","name":"b"} would call tool b), nests deeper than
// maxJSONDepth, is not JSON-RPC 2.0, or is a request whose id is null,
// fractional, outside ±2^53 or not a string or number. An Invalid Request
// reply carries the message's id whenever it has one usable id, wherever
// the fault is; a Parse error reply carries it when it was read whole
// before the fault (and is then the only id before the fault), so the
// client can tell which of its requests failed. Deeper objects, such as a tool's arguments, are left to
// their handlers.
//
// data is read once, byte by byte (scanValidJSON) or, for the rare message
// that pass leaves undecided, token by token (scanJSON); the message is
// built from the raw values of its top-level keys.
func checkMessage(data []byte) (jsonrpc.Message, error) {
	if !utf8.Valid(data) {
		return nil, &refusedMessage{code: jsonrpc.CodeParseError, message: "Parse error: the message is not valid UTF-8"}
	}
	sc, ok := jsonScan{}, false
	if json.Valid(data) {
		sc, ok = scanValidJSON(data)
	}
	if !ok {
		sc = scanJSON(data, false)
	}
	if sc.syntaxErr != nil {
		// The id is named when it was read whole before the fault.
		r := &refusedMessage{code: jsonrpc.CodeParseError, message: "Parse error: the message is not valid JSON"}
		if sc.kind == '{' {
			r.id = sc.usableID()
		}
		return nil, r
	}
	if sc.kind != '{' {
		msg := "Invalid Request: a message must be a JSON object"
		if sc.kind == '[' {
			msg = "Invalid Request: batches are not supported; send one message per line"
		}
		return nil, &refusedMessage{code: jsonrpc.CodeInvalidRequest, message: msg}
	}
	invalid := func(reason string) error {
		if sc.isResponse() {
			return &droppedResponse{reason: reason}
		}
		return &refusedMessage{code: jsonrpc.CodeInvalidRequest, message: "Invalid Request: " + reason, id: sc.usableID()}
	}
	if sc.limit != "" {
		return nil, invalid(sc.limit)
	}
	if v, ok := sc.field(data, "jsonrpc"); !ok || !isJSONString(v, "2.0") {
		return nil, invalid("not a JSON-RPC 2.0 message")
	}
	if m, ok := sc.field(data, "method"); ok {
		var method string
		if json.Unmarshal(m, &method) != nil {
			return nil, invalid("not a JSON-RPC 2.0 message")
		}
		req := &jsonrpc.Request{Method: method}
		if p, ok := sc.field(data, "params"); ok {
			req.Params = p
		}
		if sc.hasID {
			// A request with an id must be answered under that very id,
			// so it must survive the SDK's conversion and back.
			id := sc.usableID()
			if id == nil {
				return nil, invalid("the id must be a string or an integer within ±2^53")
			}
			req.ID = sc.jsonrpcID()
		}
		return req, nil
	}
	if !sc.isResponse() {
		return nil, invalid("a message needs a method, or a result or error")
	}
	if sc.usableID() == nil {
		return nil, invalid("a response needs a string or integer id")
	}
	resp := &jsonrpc.Response{ID: sc.jsonrpcID()}
	if r, ok := sc.field(data, "result"); ok {
		resp.Result = r
	}
	if e, ok := sc.field(data, "error"); ok && string(e) != "null" {
		we, ok := decodeError(e)
		if !ok {
			return nil, invalid("the error is not a JSON-RPC error object")
		}
		resp.Error = we
	}
	return resp, nil
}

// checkLongMessage returns the refusal of a message longer than
// maxLineBytes, of which prefix is the start. The reply names the request
// when its id comes early enough to be read.
func checkLongMessage(prefix []byte) *refusedMessage {
	return &refusedMessage{
		code:    jsonrpc.CodeInvalidRequest,
		message: fmt.Sprintf("Invalid Request: message longer than %d bytes", maxLineBytes),
		id:      scanID(prefix[:min(len(prefix), idScanBytes)]),
	}
}

// decodeError decodes a JSON-RPC error object as the SDK does: keys match
// exactly (encoding/json would also take "Code" for "code"), and a
// missing code or message is zero.
func decodeError(data json.RawMessage) (*jsonrpc.Error, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil || fields == nil {
		return nil, false
	}
	we := &jsonrpc.Error{}
	if c, ok := fields["code"]; ok && json.Unmarshal(c, &we.Code) != nil {
		return nil, false
	}
	if m, ok := fields["message"]; ok && json.Unmarshal(m, &we.Message) != nil {
		return nil, false
	}
	we.Data = fields["data"]
	return we, true
}

func isJSONString(v json.RawMessage, want string) bool {
	var s string
	return json.Unmarshal(v, &s) == nil && s == want
}

// span is where a top-level value lies in the message.
type span struct{ start, end int64 }

// jsonScan is what scanJSON learnt about a JSON text.
type jsonScan struct {
	syntaxErr error  // not one JSON text
	limit     string // the first limit the text breaks: a repeated key or deep nesting
	kind      byte   // '{', '[' or 0 for a scalar

	fields map[string]span // the top-level object's values, by key

	hasID bool            // the top-level object has an "id" key
	id    json.RawMessage // its value, when it is a usable id (string or integer)
	idBad bool            // the "id" value is not usable, or "id" is repeated
}

// field returns the raw value of the top-level key.
func (sc *jsonScan) field(data []byte, key string) (json.RawMessage, bool) {
	s, ok := sc.fields[key]
	if !ok {
		return nil, false
	}
	// The span starts after the key: skip the colon and white space.
	v := bytes.TrimLeft(data[s.start:s.end], " \t\r\n")
	v = bytes.TrimLeft(bytes.TrimPrefix(v, []byte(":")), " \t\r\n")
	return json.RawMessage(v), true
}

// isResponse reports whether the object looks like a response.
func (sc *jsonScan) isResponse() bool {
	_, method := sc.fields["method"]
	_, result := sc.fields["result"]
	_, failure := sc.fields["error"]
	return !method && (result || failure)
}

// usableID returns the id to answer under, or nil for null.
func (sc *jsonScan) usableID() json.RawMessage {
	if sc.idBad {
		return nil
	}
	return sc.id
}

// jsonrpcID converts a usable id, as the SDK would.
func (sc *jsonScan) jsonrpcID() jsonrpc.ID {
	var v any // a string, or a float64 holding an integer within ±2^53 exactly
	if err := json.Unmarshal(sc.id, &v); err != nil {
		return jsonrpc.ID{}
	}
	id, _ := jsonrpc.MakeID(v)
	return id
}

// scanJSON walks one JSON text token by token, once. It records a syntax
// error or trailing data, the first key repeated in the message object or
// its "params" object, nesting deeper than maxJSONDepth, where each
// top-level value lies, and the top-level "id". It reads on past a limit,
// so that an id after it is still found and a text that is not JSON further
// on is still a syntax error. Nesting deeper than Go's own parser allows is
// measured, not refused as bad syntax.
//
// An id is kept only once the token after it has been read: a number cut
// short, or followed by a fault, could be another id. With partial set,
// data is a prefix of a longer text: scanning stops quietly where the
// prefix ends.
func scanJSON(data []byte, partial bool) jsonScan {
	sc := jsonScan{fields: make(map[string]span)}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object  bool
		wantKey bool
		keys    map[string]struct{} // nil when keys are not checked
	}
	var (
		stack     []frame // down to maxJSONDepth; deeper levels are only counted
		deeper    int     // levels open beyond the stack
		topKey    string  // the key whose value is being read, at depth 1
		topStart  int64   // where that value starts
		pendingID json.RawMessage
		pendingOK bool
	)
	setLimit := func(msg string) {
		if sc.limit == "" {
			sc.limit = msg
		}
	}
	commitID := func() {
		if pendingOK {
			sc.id, pendingOK = pendingID, false
		}
	}
	// valueDone marks the end of a value in the enclosing container.
	valueDone := func() {
		n := len(stack)
		if n == 0 || deeper > 0 {
			return
		}
		if stack[n-1].object {
			stack[n-1].wantKey = true
		}
		if n == 1 && stack[0].object {
			if _, seen := sc.fields[topKey]; !seen {
				sc.fields[topKey] = span{topStart, dec.InputOffset()}
			}
		}
	}
	for started := false; ; started = true {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			switch {
			case partial:
			case !started:
				sc.syntaxErr = errors.New("empty")
			case len(stack) > 0:
				sc.syntaxErr = io.ErrUnexpectedEOF
			default:
				commitID()
			}
			return sc
		}
		if err != nil {
			if !partial {
				sc.syntaxErr = err
			}
			return sc
		}
		commitID()
		if started && len(stack) == 0 {
			sc.syntaxErr = errors.New("trailing data")
			return sc
		}
		if deeper > 0 {
			switch tok {
			case json.Delim('{'), json.Delim('['):
				deeper++
			case json.Delim('}'), json.Delim(']'):
				deeper--
				valueDone()
			}
			continue
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:n-1]
				valueDone()
				continue
			}
			key, ok := tok.(string)
			if !ok {
				sc.syntaxErr = errors.New("object key is not a string")
				return sc
			}
			if keys := stack[n-1].keys; keys != nil {
				if _, dup := keys[key]; dup {
					if n == 1 && key == "id" {
						sc.idBad = true // which one would be answered?
					}
					setLimit("key " + strconv.Quote(clip(key, maxQuotedKey)) + " appears more than once in one object")
				}
				keys[key] = struct{}{}
			}
			stack[n-1].wantKey = false
			if n == 1 {
				topKey, topStart = key, dec.InputOffset()
			}
			continue
		}
		isID := len(stack) == 1 && stack[0].object && topKey == "id"
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if len(stack) == 0 {
					sc.kind = byte(v)
				}
				if isID {
					sc.hasID, sc.idBad = true, true
				}
				if len(stack) >= maxJSONDepth {
					setLimit(fmt.Sprintf("objects and arrays nest deeper than %d levels", maxJSONDepth))
					deeper = 1
					continue
				}
				f := frame{object: v == '{', wantKey: v == '{'}
				if f.object && (len(stack) == 0 || len(stack) == 1 && topKey == "params") {
					f.keys = make(map[string]struct{})
				}
				stack = append(stack, f)
			case '}', ']':
				stack = stack[:len(stack)-1]
				valueDone()
			}
			continue
		case string:
			if isID {
				sc.hasID = true
				pendingID, _ = json.Marshal(v)
				pendingOK = true
			}
		case json.Number:
			if isID {
				sc.hasID = true
				if i, err := strconv.ParseInt(string(v), 10, 64); err == nil && -(1<<53) <= i && i <= 1<<53 {
					pendingID, pendingOK = json.RawMessage(strconv.FormatInt(i, 10)), true
				} else {
					sc.idBad = true
				}
			}
		default: // bool or null
			if isID {
				sc.hasID, sc.idBad = true, true
			}
		}
		valueDone()
	}
}

// scanID returns the top-level "id" of a message that may be cut short, if
// it can be read and is usable, or nil.
func scanID(prefix []byte) json.RawMessage {
	if !utf8.Valid(prefix) {
		// The cut may have split a rune; drop up to three trailing bytes.
		for i := 0; i < utf8.UTFMax-1 && len(prefix) > 0 && !utf8.Valid(prefix); i++ {
			prefix = prefix[:len(prefix)-1]
		}
		if !utf8.Valid(prefix) {
			return nil
		}
	}
	sc := scanJSON(prefix, true)
	if sc.kind != '{' {
		return nil
	}
	return sc.usableID()
}
