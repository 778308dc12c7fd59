package main

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRecoverPanics: a panic is answered with -32603 and logged on one
// line that names the method and the kind of panic but not the panic's
// text.
func TestRecoverPanics(t *testing.T) {
	var logBuf lockedBuffer
	log := slog.New(slog.NewTextHandler(&logBuf, nil))
	mw := recoverPanics(log)
	h := mw(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		panic(errors.New("/home/learner/secret/notes.md: PANIC-TEXT"))
	})
	res, err := h(context.Background(), "tools/call", nil)
	var we *jsonrpc.Error
	if res != nil || !errors.As(err, &we) || we.Code != jsonrpc.CodeInternalError {
		t.Fatalf("got %v, %v; want a -32603 error", res, err)
	}
	if strings.Contains(we.Message, "PANIC-TEXT") {
		t.Errorf("the reply quotes the panic: %q", we.Message)
	}
	out := logBuf.String()
	if strings.Count(out, "\n") != 1 || !strings.Contains(out, "method=tools/call") || !strings.Contains(out, "*errors.errorString") {
		t.Errorf("log should be one line naming the method and panic type:\n%s", out)
	}
	if strings.Contains(out, "PANIC-TEXT") || strings.Contains(out, "/home/") || strings.Contains(out, "/work/") {
		t.Errorf("the log quotes the panic or a source path:\n%s", out)
	}
	if !strings.Contains(out, "TestRecoverPanics") {
		t.Errorf("the log has no stack:\n%s", out)
	}

	// A runtime error keeps its message, which the runtime makes.
	logBuf = lockedBuffer{}
	h = mw(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		var s []int
		_ = s[3]
		return nil, nil
	})
	if _, err := h(context.Background(), "tools/call", nil); !errors.As(err, &we) {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(logBuf.String(), "index out of range [3] with length 0") {
		t.Errorf("runtime error not described:\n%s", logBuf.String())
	}
}
