package main

import (
	"context"
	"errors"
	"regexp"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// replyErrors is the outermost receiving middleware: it turns every error
// a request ends with into the JSON-RPC error sent back (see replyError),
// for stdio and HTTP alike.
func replyErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return nil, replyError(method, err)
		}
		return res, nil
	}
}

// maxErrorMessage bounds the message of an error reply. The SDK quotes
// what the client sent in some (an unknown method or tool name, params it
// could not decode), which could otherwise make a reply as long as the
// request.
const maxErrorMessage = 300

// replyError returns the JSON-RPC error that answers a request to method
// that failed with err. The SDK sends a plain Go error with code 0, which
// JSON-RPC does not define; it is given a standard code:
//
//   - a second initialize: -32600 Invalid Request;
//   - a cancelled call, or one past its deadline: -32603 Internal error
//     (over stdio a call the client cancelled is not answered at all);
//   - anything else, such as resources/list on a folder that cannot be
//     read: -32603 Internal error, with the error's message.
//
// An error that has a code keeps it and its message. Its data is dropped:
// the SDK's "Resource not found" puts the client's URI there, and a
// refusal never repeats what the client sent. The message is clipped to
// maxErrorMessage bytes.
func replyError(method string, err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	switch {
	case errors.As(err, &we) && we.Code != 0:
		// The outer message, as the SDK would send it.
		return &jsonrpc.Error{Code: we.Code, Message: clip(err.Error(), maxErrorMessage)}
	case method == "initialize":
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: clip("Invalid Request: "+err.Error(), maxErrorMessage)}
	case errors.Is(err, context.Canceled):
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the request was cancelled"}
	case errors.Is(err, context.DeadlineExceeded):
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the request did not finish within its deadline"}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: clip(err.Error(), maxErrorMessage)}
}

// sessionRefusal is what the stdio transport sends for an error reply. Some
// are made by the SDK before any middleware sees the request: its session
// checks, such as a call before initialize, send a plain error (code 0);
// those refuse the request as it stands, so the code is -32600 Invalid
// Request (a request cancelled before it started is -32603, as in
// replyError). Others, such as an unknown method, have a code and may
// quote the request: params it could not decode are named by type only,
// not quoted. Every message is clipped to maxErrorMessage bytes;
// a code and data are kept (the data of -32022, unsupported protocol
// version, lists the versions the server supports).
func sessionRefusal(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	switch {
	case errors.As(err, &we) && we.Code != 0:
		msg := err.Error()
		if we.Code == jsonrpc.CodeInvalidParams {
			msg = paramsQuoteRE.ReplaceAllString(msg, "the params do not decode into $1")
		}
		return &jsonrpc.Error{Code: we.Code, Message: clip(msg, maxErrorMessage), Data: we.Data}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return replyError("", err)
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: clip("Invalid Request: "+err.Error(), maxErrorMessage)}
}

// paramsQuoteRE matches the SDK's report of params it could not decode,
// which quotes the params whole (a resource URI included) and then the
// decoder's error, which quotes part of them again.
var paramsQuoteRE = regexp.MustCompile(`unmarshaling "(?:[^"\\]|\\.)*" into an? (\S+): .*$`)
