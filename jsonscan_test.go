package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// FuzzScanValidJSON: on every valid UTF-8 JSON text, scanValidJSON either
// leaves it to scanJSON or gives exactly what scanJSON gives.
func FuzzScanValidJSON(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"search_notes","arguments":{"query":"x","n":[1,{"a":"}"}]}}}`,
		` { "jsonrpc" : "2.0" , "method" : "notifications/cancelled" , "params" : { "requestId" : 1 } } `,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x\"y"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1,"a":2}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":{"b":1,"b":2}}}`,
		`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1e2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-9007199254740992,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{"a":[]},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a<b","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\u0041","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"é","method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"json\u0072pc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"ping","params":{"k\"":1,"k\"":2}}`,
		`{"jsonrpc":"2.0","method":"ping","params":[{"a":1,"a":1}]}`,
		`{}`, `[]`, `[{"a":1}]`, `42`, `"x"`, `null`, `{"a":""}`,
		strings.Repeat(`{"a":`, 63) + `1` + strings.Repeat(`}`, 63),
		strings.Repeat(`{"a":`, 64) + `1` + strings.Repeat(`}`, 64),
		strings.Repeat(`{"a":`, 65) + `1` + strings.Repeat(`}`, 65),
		`{"params":` + strings.Repeat(`[`, 63) + strings.Repeat(`]`, 63) + `,"id":3}`,
		`{"params":` + strings.Repeat(`[`, 64) + strings.Repeat(`]`, 64) + `,"id":3}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) || !json.Valid(data) {
			return
		}
		fast, ok := scanValidJSON(data)
		if !ok {
			return
		}
		slow := scanJSON(data, false)
		if slow.syntaxErr != nil || slow.limit != "" {
			t.Fatalf("%q: scanValidJSON decided it, but scanJSON found %v, limit %q", data, slow.syntaxErr, slow.limit)
		}
		type view struct {
			Kind         byte
			Fields       map[string]span
			HasID, IDBad bool
			ID           string
		}
		v := func(sc jsonScan) view {
			fields := sc.fields
			if len(fields) == 0 {
				fields = nil
			}
			return view{sc.kind, fields, sc.hasID, sc.idBad, string(sc.id)}
		}
		if slow.kind != '{' { // only the kind counts
			if fast.kind != slow.kind {
				t.Fatalf("%q: kind %q, scanJSON %q", data, fast.kind, slow.kind)
			}
			return
		}
		if diff := cmp.Diff(v(slow), v(fast), cmp.AllowUnexported(span{})); diff != "" {
			t.Fatalf("%q (-scanJSON +scanValidJSON):\n%s", data, diff)
		}
	})
}

// TestScanValidJSONDecides: the messages clients send are decided by the
// fast pass, and the rare ones are left to scanJSON.
func TestScanValidJSONDecides(t *testing.T) {
	for _, tt := range []struct {
		msg  string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"sign-in"}}}`, true},
		{`{"jsonrpc":"2.0","id":"req-7","method":"ping"}`, true},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1,"a":2}}`, false},
		{`{"jsonrpc":"2.0","id":"a\"b","method":"ping"}`, false},
		{`{"json\u0072pc":"2.0","id":1,"method":"ping"}`, false},
		{strings.Repeat(`{"a":`, 65) + `1` + strings.Repeat(`}`, 65), false},
	} {
		if _, got := scanValidJSON([]byte(tt.msg)); got != tt.want {
			t.Errorf("scanValidJSON(%s) decided: %v, want %v", tt.msg, got, tt.want)
		}
	}
}

// BenchmarkScan compares the two passes on a tools/call message.
func BenchmarkScan(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"amber signal drift"}}}`)
	b.Run("scanValidJSON", func(b *testing.B) {
		for b.Loop() {
			if !json.Valid(msg) {
				b.Fatal("not valid")
			}
			if _, ok := scanValidJSON(msg); !ok {
				b.Fatal("undecided")
			}
		}
	})
	b.Run("scanJSON", func(b *testing.B) {
		for b.Loop() {
			scanJSON(msg, false)
		}
	})
}
