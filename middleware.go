package main

import (
	"context"
	"errors"
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

// Outcomes of one call, as the audit log names them.
const (
	outcomeOK            = "ok"
	outcomeToolError     = "tool_error"     // the tool refused or failed: isError
	outcomeProtocolError = "protocol_error" // a JSON-RPC error, such as a refused read
)

// maxLoggedText bounds any client-supplied text in the log, such as a
// resource URI, so one call cannot write a huge line.
const maxLoggedText = 200

// audit is a receiving middleware that logs one line per message on the
// server's stderr logger: the method, the tool or resource, how long it
// took and how it ended. Successful calls are logged at debug, so the
// default level stays quiet; refusals are logged at warn. It never logs
// note text or the query, only the size of the arguments.
func (ns *notesServer) audit(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		start := time.Now()
		res, err := next(ctx, method, req)
		elapsed := time.Since(start)

		attrs := []slog.Attr{slog.String("method", method)}
		switch r := req.(type) {
		case *mcp.CallToolRequest:
			if r.Params != nil {
				attrs = append(attrs,
					slog.String("tool", shorten(r.Params.Name, maxLoggedText)),
					slog.Int("args_bytes", len(r.Params.Arguments)))
			}
		case *mcp.ReadResourceRequest:
			if r.Params != nil {
				attrs = append(attrs, slog.String("resource", shorten(r.Params.URI, maxLoggedText)))
			}
		}
		attrs = append(attrs, slog.Duration("duration", elapsed))

		level, outcome := slog.LevelDebug, outcomeOK
		var reason string
		switch {
		case err != nil:
			outcome, reason = outcomeProtocolError, err.Error()
			// A call the client cancelled, or a server shutting down, is
			// not a refusal.
			if !errors.Is(err, context.Canceled) && ctx.Err() == nil {
				level = slog.LevelWarn
			}
		case isToolError(res):
			outcome, reason = outcomeToolError, resultText(res.(*mcp.CallToolResult))
			level = slog.LevelWarn
		}
		attrs = append(attrs, slog.String("outcome", outcome))
		if reason != "" {
			attrs = append(attrs, slog.String("reason", shorten(reason, maxLoggedText)))
		}
		ns.log.LogAttrs(ctx, level, "call", attrs...)
		return res, err
	}
}

func isToolError(res mcp.Result) bool {
	r, ok := res.(*mcp.CallToolResult)
	return ok && r != nil && r.IsError
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

// Limits on the work one client can start.
const (
	// maxRunningCalls is how many calls that read notes (tools/call,
	// resources/list, resources/read) run at once in one server.
	maxRunningCalls = 8
	// maxWaitingCalls is how many more may wait for a turn. A call beyond
	// that is answered at once with a busy error.
	maxWaitingCalls = 1024
	// maxTurnWait is how long a call waits for a turn before it is answered
	// with a busy error.
	maxTurnWait = 5 * time.Second
	// callDeadline bounds one running call. A search stops itself after
	// search.Timeout; this is the backstop for anything else a handler does.
	callDeadline = search.Timeout + time.Second
)

// limitedMethods are the methods that touch the file system.
var limitedMethods = map[string]bool{
	"tools/call":     true,
	"resources/list": true,
	"resources/read": true,
}

// callLimiter lets at most maxRunningCalls limited calls run at once and at
// most maxWaitingCalls wait.
type callLimiter struct {
	slots      chan struct{}
	waiting    atomic.Int64
	maxWaiting int64
	maxWait    time.Duration
}

func newCallLimiter(running, waiting int, maxWait time.Duration) *callLimiter {
	return &callLimiter{slots: make(chan struct{}, running), maxWaiting: int64(waiting), maxWait: maxWait}
}

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
				return answer(method, fmt.Errorf("%w: %d calls are running and %d waiting; try again in a moment", errBusy, cap(l.slots), l.maxWaiting))
			}
			timer := time.NewTimer(l.maxWait)
			select {
			case l.slots <- struct{}{}:
				timer.Stop()
				l.waiting.Add(-1)
			case <-timer.C:
				l.waiting.Add(-1)
				return answer(method, fmt.Errorf("%w: no turn came within %v; try again in a moment", errBusy, l.maxWait))
			case <-ctx.Done():
				timer.Stop()
				l.waiting.Add(-1)
				return nil, ctx.Err()
			}
		}
		defer func() { <-l.slots }()
		ctx, cancel := context.WithTimeout(ctx, callDeadline)
		defer cancel()
		return next(ctx, method, req)
	}
}

// errInitialized refuses an initialize on a connection that is already
// initialized.
var errInitialized = errors.New("this connection is already initialized (by initialize, " +
	"or by a request naming its revision in _meta); initialize must come first")

// initializeOnce refuses initialize on a session that already has its
// parameters, whichever way it got them. The SDK refuses it too, but as a
// "duplicate", which misleads a client that sent a 2026-07-28 request
// (which initializes the session by itself) and then tries the handshake
// on the same connection: that client needs a new connection.
func initializeOnce(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "initialize" {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss.InitializeParams() != nil {
				return nil, errInitialized
			}
		}
		return next(ctx, method, req)
	}
}
