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

// The JSON scanner the message rules read a message with: scanJSON reads any
// text, scanValidJSON is its one-pass fast path for valid JSON.

// maxJSONDepth is how deeply objects and arrays may nest in one message.
// MCP messages nest a handful of levels.
const maxJSONDepth = 64

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
					setLimit("key " + strconv.Quote(shorten(key, maxQuotedKey)) + " appears more than once in one object")
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

// scanValidJSON is scanJSON for a text json.Valid accepts, made in one pass
// over its bytes. scanJSON's token decoder allocates for every token, and
// took most of the time of checking a message; this pass allocates only the
// map of top-level fields. It handles the messages clients send: keys of
// the message object and its params object without escapes, an id that is
// a number or a string of printable ASCII that JSON encoding leaves as it
// is, nesting within maxJSONDepth, no key repeated. For anything else,
// rare in practice, it reports false, and scanJSON decides. Since the text
// is valid JSON, only the cases above need checking here; what it returns
// is what scanJSON returns (FuzzScanValidJSON). data must be valid UTF-8,
// as checkMessage has made sure: scanJSON decodes keys, and this compares
// their bytes.
func scanValidJSON(data []byte) (jsonScan, bool) {
	s := validScanner{data: data}
	s.space()
	switch data[s.i] {
	case '[':
		return jsonScan{kind: '['}, true
	case '{':
	default:
		return jsonScan{}, true // a scalar
	}
	sc := jsonScan{kind: '{', fields: make(map[string]span)}
	ok := s.members(func(key string, start int) bool {
		if _, dup := sc.fields[key]; dup {
			return false
		}
		switch {
		case key == "id":
			if !s.id(&sc) {
				return false
			}
		case key == "params" && data[s.i] == '{':
			if !s.params() {
				return false
			}
		default:
			if !s.skip(1) {
				return false
			}
		}
		sc.fields[key] = span{int64(start), int64(s.i)}
		return true
	})
	return sc, ok
}

// validScanner walks a valid JSON text; i is the offset of the next byte.
type validScanner struct {
	data []byte
	i    int
}

func (s *validScanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// key reads an object key at s.i, failing for one with an escape.
func (s *validScanner) key() (string, bool) {
	start := s.i + 1
	for j := start; ; j++ {
		switch s.data[j] {
		case '\\':
			return "", false
		case '"':
			s.i = j + 1
			return string(s.data[start:j]), true
		}
	}
}

// id reads the message's id at s.i, as scanJSON does, failing for a string
// that JSON encoding would change.
func (s *validScanner) id(sc *jsonScan) bool {
	sc.hasID = true
	start := s.i
	switch c := s.data[start]; {
	case c == '"':
		for j := start + 1; ; j++ {
			c := s.data[j]
			if c == '"' {
				s.i = j + 1
				sc.id = append([]byte(nil), s.data[start:s.i]...)
				return true
			}
			if c < 0x20 || c >= 0x7f || c == '\\' || c == '<' || c == '>' || c == '&' {
				return false
			}
		}
	case c == '-' || '0' <= c && c <= '9':
		s.literal()
		i, err := strconv.ParseInt(string(s.data[start:s.i]), 10, 64)
		if err == nil && -(1<<53) <= i && i <= 1<<53 {
			sc.id = strconv.AppendInt(nil, i, 10)
		} else {
			sc.idBad = true
		}
		return true
	default: // an object, an array, true, false or null
		sc.idBad = true
		return s.skip(1)
	}
}

// members reads the object at s.i: for each member, it reads the key and
// calls value with it, the offset just after it, and s.i at the value,
// which value must pass over. It fails for a key with an escape, or when
// value fails.
func (s *validScanner) members(value func(key string, start int) bool) bool {
	s.i++ // {
	for {
		s.space()
		if s.data[s.i] == '}' {
			s.i++
			return true
		}
		key, ok := s.key()
		if !ok {
			return false
		}
		start := s.i
		s.space()
		s.i++ // :
		s.space()
		if !value(key, start) {
			return false
		}
		s.space()
		if s.data[s.i] == ',' {
			s.i++
		}
	}
}

// params reads the params object at s.i, failing if it repeats a key.
func (s *validScanner) params() bool {
	var keys []string // few: a linear search beats a map
	return s.members(func(key string, _ int) bool {
		for _, k := range keys {
			if k == key {
				return false
			}
		}
		keys = append(keys, key)
		return s.skip(2)
	})
}

// skip passes over the value at s.i, inside depth open objects and arrays,
// failing where nesting goes deeper than maxJSONDepth.
func (s *validScanner) skip(depth int) bool {
	switch s.data[s.i] {
	case '"':
		for j := s.i + 1; ; j++ {
			switch s.data[j] {
			case '\\':
				j++
			case '"':
				s.i = j + 1
				return true
			}
		}
	case '{', '[':
		if depth >= maxJSONDepth {
			return false
		}
		s.i++
		for {
			s.space()
			switch s.data[s.i] {
			case '}', ']':
				s.i++
				return true
			case ',', ':':
				s.i++
			default:
				if !s.skip(depth + 1) {
					return false
				}
			}
		}
	default:
		s.literal()
		return true
	}
}

// literal passes over a number, true, false or null.
func (s *validScanner) literal() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return
		}
		s.i++
	}
}
