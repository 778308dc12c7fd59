package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/search"
)

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
		ctx, cancel := context.WithTimeout(ctx, callDeadline)
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
