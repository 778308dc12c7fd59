package main

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Limits of one message.
const (
	// maxLineBytes is the longest message accepted, in bytes: on stdio, one
	// line without its line break.
	maxLineBytes = 1 << 20
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
		// The id is named when it was read whole before the first byte
		// that is not UTF-8, as for a syntax error.
		r := &refusedMessage{code: jsonrpc.CodeParseError, message: "Parse error: the message is not valid UTF-8"}
		if sc := scanJSON(data[:validUTF8Prefix(data)], true); sc.kind == '{' {
			r.id = sc.usableID()
		}
		return nil, r
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

// validUTF8Prefix returns the length of the longest prefix of data that is
// valid UTF-8: where the first invalid byte (an overlong form, an encoded
// surrogate, a stray continuation byte, a cut sequence) starts.
func validUTF8Prefix(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(data)
}
