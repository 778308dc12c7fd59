package main

import "strconv"

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
