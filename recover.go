package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recoverPanics turns a panic in a handler into a -32603 Internal error
// answer and one line on the log. The line names the method, the kind of
// panic and the functions on the stack, but not the panic's own text (which
// could hold note text or an absolute path, and would be taken from an
// untrusted file) nor the source file paths of the stack.
//
// It covers everything the SDK calls through its receiving middleware, that
// is every request handler. A panic in a goroutine a handler starts itself
// is not covered.
func recoverPanics(log *slog.Logger) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if v := recover(); v != nil {
					log.Error("recovered from a panic while handling a request; answered with an internal error",
						"method", method, "panic", describePanic(v), "stack", shortStack())
					res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: the server failed while handling this request"}
				}
			}()
			return next(ctx, method, req)
		}
	}
}

// describePanic names a panic value without quoting text that may have come
// from a file: a runtime error's message is made by the runtime from types
// and numbers, so it is kept; anything else is named by its type.
func describePanic(v any) string {
	if re, ok := v.(runtime.Error); ok {
		return "runtime error: " + strings.TrimPrefix(re.Error(), "runtime error: ")
	}
	return fmt.Sprintf("panic with a %T value", v)
}

// shortStack lists the panicking goroutine's functions with the base names
// of their files, innermost first.
func shortStack() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(4, pcs) // skip Callers, shortStack, the deferred func, panic
	frames := runtime.CallersFrames(pcs[:n])
	var b strings.Builder
	for {
		f, more := frames.Next()
		if b.Len() > 0 {
			b.WriteString(" < ")
		}
		fmt.Fprintf(&b, "%s (%s:%d)", f.Function, filepath.Base(f.File), f.Line)
		if !more {
			break
		}
	}
	return b.String()
}
