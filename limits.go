package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/search"
)

// Limits on the work one client can start.
const (
	// MaxRunningCalls is how many calls that read notes (tools/call,
	// resources/list, resources/read) run at once in one server.
	MaxRunningCalls = 8
	// MaxWaitingCalls is how many more may wait for a turn. A call beyond
	// that is answered at once with a busy error.
	MaxWaitingCalls = 1024
	// MaxWait is how long a call waits for a turn before it is answered
	// with a busy error.
	MaxWait = 5 * time.Second
	// CallDeadline bounds one running call. A search stops itself after
	// search.Timeout; this is the backstop for anything else a handler does.
	CallDeadline = search.Timeout + time.Second
)

// limitedMethods are the methods that touch the file system.
var limitedMethods = map[string]bool{
	"tools/call":     true,
	"resources/list": true,
	"resources/read": true,
}

// callLimiter lets at most MaxRunningCalls limited calls run at once and at
// most MaxWaitingCalls wait.
type callLimiter struct {
	slots      chan struct{}
	waiting    atomic.Int64
	maxWaiting int64
	maxWait    time.Duration
}

func newCallLimiter(running, waiting int, maxWait time.Duration) *callLimiter {
	return &callLimiter{slots: make(chan struct{}, running), maxWaiting: int64(waiting), maxWait: maxWait}
}

// running reports how many limited calls hold a slot now.
func (l *callLimiter) running() int { return len(l.slots) }

// middleware applies the limits. A call that cannot get a turn is answered
// with a busy error: a tool result with isError for tools/call, so the model
// reads it, and a JSON-RPC error otherwise. A call cancelled while it waits
// is answered with the cancellation, as the SDK does for any call.
func (l *callLimiter) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !limitedMethods[method] {
			return next(ctx, method, req)
		}
		select {
		case l.slots <- struct{}{}:
		default:
			if l.waiting.Add(1) > l.maxWaiting {
				l.waiting.Add(-1)
				return busy(method, fmt.Sprintf("the server is busy: %d calls are running and %d waiting; try again in a moment", cap(l.slots), l.maxWaiting))
			}
			timer := time.NewTimer(l.maxWait)
			select {
			case l.slots <- struct{}{}:
				timer.Stop()
				l.waiting.Add(-1)
			case <-timer.C:
				l.waiting.Add(-1)
				return busy(method, fmt.Sprintf("the server is busy: no turn came within %v; try again in a moment", l.maxWait))
			case <-ctx.Done():
				timer.Stop()
				l.waiting.Add(-1)
				return nil, ctx.Err()
			}
		}
		defer func() { <-l.slots }()
		ctx, cancel := context.WithTimeout(ctx, CallDeadline)
		defer cancel()
		return next(ctx, method, req)
	}
}

// codeServerBusy is the JSON-RPC error code for a busy answer to a call
// other than tools/call (the implementation-defined server error range).
const codeServerBusy = -32000

func busy(method, msg string) (mcp.Result, error) {
	if method == "tools/call" {
		return &mcp.CallToolResult{
			IsError: true,
			Content: []mcp.Content{&mcp.TextContent{Text: msg}},
		}, nil
	}
	return nil, &jsonrpc.Error{Code: codeServerBusy, Message: msg}
}

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
