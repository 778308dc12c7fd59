package main

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
					slog.String("tool", clip(r.Params.Name, maxLoggedText)),
					slog.Int("args_bytes", len(r.Params.Arguments)))
			}
		case *mcp.ReadResourceRequest:
			if r.Params != nil {
				attrs = append(attrs, slog.String("resource", clip(r.Params.URI, maxLoggedText)))
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
			attrs = append(attrs, slog.String("reason", clip(reason, maxLoggedText)))
		}
		ns.log.LogAttrs(ctx, level, "call", attrs...)
		return res, err
	}
}

func isToolError(res mcp.Result) bool {
	r, ok := res.(*mcp.CallToolResult)
	return ok && r != nil && r.IsError
}
