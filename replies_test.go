package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestErrorFor: every error a request ends with gets a standard code,
// keeps its message within maxErrorMessage bytes, and loses its data.
func TestErrorFor(t *testing.T) {
	long := strings.Repeat("x", 2*maxErrorMessage)
	tests := []struct {
		name   string
		method string
		err    error
		want   *jsonrpc.Error
	}{
		{"coded", "resources/read", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "note refused: no such note"},
			&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "note refused: no such note"}},
		{"data dropped", "resources/read", mcp.ResourceNotFoundError("file:///CLIENT-URI"),
			&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found"}},
		{"wrapped", "tools/call", fmt.Errorf("handling: %w", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"}),
			&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "handling: bad"}},
		{"second initialize", "initialize", errors.New(`duplicate "initialize" received`),
			&jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: `Invalid Request: duplicate "initialize" received`}},
		{"cancelled", "tools/call", context.Canceled,
			&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the request was cancelled"}},
		{"deadline", "tools/call", fmt.Errorf("search: %w", context.DeadlineExceeded),
			&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the request did not finish within its deadline"}},
		{"plain", "resources/list", errors.New("listing notes: listing the root: could not be read"),
			&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "listing notes: listing the root: could not be read"}},
		{"long", "tools/call", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: long},
			&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: long[:maxErrorMessage] + "…"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, errorFor(tt.method, tt.err)); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestWireError: the errors the SDK sends before any middleware get
// a code when they have none, a bounded message, and keep their data.
func TestWireError(t *testing.T) {
	long := strings.Repeat("m", 2*maxErrorMessage)
	tests := []struct {
		name string
		err  error
		want *jsonrpc.Error
	}{
		{"before initialize", errors.New(`method "tools/list" is invalid during session initialization`),
			&jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: `Invalid Request: method "tools/list" is invalid during session initialization`}},
		{"cancelled", context.Canceled, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the request was cancelled"}},
		{"unknown method", fmt.Errorf("%w: %q", &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found"}, long),
			&jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: shorten(`method not found: "`+long+`"`, maxErrorMessage)}},
		{"params not decoded", fmt.Errorf("handling '%s': %w", "resources/read", fmt.Errorf("%w: unmarshaling %q into a %T: %w", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params"}, `{"uri":"file:///CLIENT-URI \" into a x: y","_meta":5}`, &mcp.ReadResourceParams{}, errors.New(`json: cannot unmarshal "5}" into _meta`))),
			&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "handling 'resources/read': invalid params: the params do not decode into *mcp.ReadResourceParams"}},
		{"version data kept", &jsonrpc.Error{Code: mcp.CodeUnsupportedProtocolVersion, Message: "unsupported protocol version", Data: []byte(`{"supported":["2025-06-18"],"requested":"2099-01-01","extra":"/etc/passwd"}`)},
			&jsonrpc.Error{Code: mcp.CodeUnsupportedProtocolVersion, Message: "unsupported protocol version", Data: []byte(`{"supported":["2025-06-18"],"requested":"2099-01-01"}`)}},
		{"requested version clipped", &jsonrpc.Error{Code: mcp.CodeUnsupportedProtocolVersion, Message: "unsupported protocol version", Data: []byte(`{"supported":["2025-06-18"],"requested":"` + long + `"}`)},
			&jsonrpc.Error{Code: mcp.CodeUnsupportedProtocolVersion, Message: "unsupported protocol version", Data: []byte(`{"supported":["2025-06-18"],"requested":"` + shorten(long, maxQuotedKey) + `"}`)}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, wireError(tt.err)); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestShorten(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…"},
		{"ééé", 3, "é…"}, // é is two bytes; never cut one in half
	}
	for _, tt := range tests {
		if got := shorten(tt.s, tt.n); got != tt.want {
			t.Errorf("shorten(%q, %d) = %q; want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
