package main

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/boundary"
)

// Every request that does not succeed is answered by the first rule of one
// table, on stdio and HTTP alike: the handlers and the limiter answer
// through [answer], the outermost middleware ([replyErrors]) through it
// for whatever else a request ends with, and the stdio transport through
// [wireError] for what the SDK refuses before any middleware runs.
//
//	cause                                      answer
//	the tool's arguments or query are refused  isError result: the reason
//	the search failed                          isError result: "search failed: " and why
//	the server is busy                         isError result for tools/call, else -32000
//	an error that has a code                   that code and its message
//	a note URI that is not a note's            -32602: the reason
//	no such note                               -32602 "Resource not found"
//	the file system did not answer in time     -32603 "note not read in time ..."
//	any other refusal of a note                -32602 "note refused: " and the reason
//	the request was cancelled                  -32603 "the request was cancelled"
//	it passed its deadline                     -32603 "the request did not finish within its deadline"
//	refused by the SDK's session checks        -32600 "Invalid Request: " and why
//	a second initialize                        -32600 "Invalid Request: " and why
//	anything else                              -32603: the error's message
//
// An isError result lets the model read why and try again; a JSON-RPC
// error is for the client. No answer repeats what the client sent beyond
// a clipped name: every message is clipped to maxErrorMessage bytes, the
// SDK's quote of params it could not decode is replaced by their type, and
// error data is dropped (the SDK's "Resource not found" puts the client's
// URI there), except the data the protocol defines for -32022, unsupported
// protocol version (see versionData).
func answer(method string, err error) (mcp.Result, error) {
	var tool *toolRefusal
	if errors.As(err, &tool) || errors.Is(err, errBusy) && method == "tools/call" {
		return &mcp.CallToolResult{
			IsError: true,
			Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}},
		}, nil
	}
	return nil, errorFor(method, err)
}

// resultText joins a result's text content into one string.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, " ")
}

// toolAnswer is answer for the search_notes handler.
func toolAnswer(err error) (*mcp.CallToolResult, error) {
	res, err := answer("tools/call", err)
	if err != nil {
		return nil, err
	}
	return res.(*mcp.CallToolResult), nil
}

// Causes named by the table.
var (
	// errBusy: no turn came for a call that reads notes.
	errBusy = errors.New("the server is busy")
	// errBadArguments is wrapped by every refusal of the arguments object.
	errBadArguments = errors.New("invalid arguments")
	// errSearchFailed wraps why a valid query could not be searched.
	errSearchFailed = errors.New("search failed")
	// errBadNoteURI is wrapped by every refusal of a URI before it reaches
	// the boundary. Its messages never repeat the URI, which may hold a
	// path outside the notes folder.
	errBadNoteURI = errors.New("invalid note URI")
	// errSessionRefused marks what the SDK refused before any handler ran.
	errSessionRefused = errors.New("refused by the session")
)

// A toolRefusal is a cause the model can act on: the tool's arguments or
// query were refused, or the search failed.
type toolRefusal struct{ err error }

func (r *toolRefusal) Error() string { return r.err.Error() }
func (r *toolRefusal) Unwrap() error { return r.err }

// refuseTool marks err as a toolRefusal.
func refuseTool(err error) error { return &toolRefusal{err} }

// codeServerBusy is the JSON-RPC error code for a busy answer to a call
// other than tools/call (the implementation-defined server error range).
const codeServerBusy = -32000

// maxErrorMessage bounds the message of an error reply. The SDK quotes
// what the client sent in some (an unknown method or tool name, params it
// could not decode), which could otherwise make a reply as long as the
// request.
const maxErrorMessage = 300

// errorFor returns the JSON-RPC error the table gives err.
func errorFor(method string, err error) *jsonrpc.Error {
	reply := func(code int64, msg string) *jsonrpc.Error {
		return &jsonrpc.Error{Code: code, Message: shorten(msg, maxErrorMessage)}
	}
	var (
		we *jsonrpc.Error
		be *boundary.Error
	)
	switch {
	case errors.Is(err, errBusy):
		return reply(codeServerBusy, err.Error())
	case errors.As(err, &we) && we.Code != 0:
		msg := err.Error() // the outer message, as the SDK would send it
		if we.Code == jsonrpc.CodeInvalidParams {
			msg = paramsQuoteRE.ReplaceAllString(msg, "the params do not decode into $1")
		}
		r := reply(we.Code, msg)
		if we.Code == mcp.CodeUnsupportedProtocolVersion {
			r.Data = versionData(we.Data)
		}
		return r
	case errors.Is(err, errBadNoteURI):
		return reply(jsonrpc.CodeInvalidParams, err.Error())
	case errors.As(err, &be):
		// be.Error() would quote the name, which for an invalid name is
		// whatever the client sent; the reason alone is enough.
		switch {
		case errors.Is(be.Reason, boundary.ErrNotFound):
			return reply(jsonrpc.CodeInvalidParams, "Resource not found")
		case errors.Is(be.Reason, boundary.ErrNotInTime):
			// Not the client's fault: the notes folder did not answer.
			return reply(jsonrpc.CodeInternalError, "note "+be.Reason.Error())
		}
		return reply(jsonrpc.CodeInvalidParams, "note refused: "+be.Reason.Error())
	case errors.Is(err, context.Canceled):
		return reply(jsonrpc.CodeInternalError, "the request was cancelled")
	case errors.Is(err, context.DeadlineExceeded):
		return reply(jsonrpc.CodeInternalError, "the request did not finish within its deadline")
	case errors.Is(err, errSessionRefused), method == "initialize":
		return reply(jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
	}
	return reply(jsonrpc.CodeInternalError, err.Error())
}

// versionData returns the data of a -32022 reply, which the protocol
// defines: the revisions the server speaks, so that the client can pick
// one, and the one it asked for, clipped like any text a reply repeats.
// Anything else the data holds is dropped.
func versionData(data json.RawMessage) json.RawMessage {
	var d mcp.UnsupportedProtocolVersionData
	if json.Unmarshal(data, &d) != nil {
		return nil
	}
	d.Requested = shorten(d.Requested, maxQuotedKey)
	out, err := json.Marshal(d)
	if err != nil {
		return nil
	}
	return out
}

// paramsQuoteRE matches the SDK's report of params it could not decode,
// which quotes the params whole (a resource URI included) and then the
// decoder's error, which quotes part of them again.
var paramsQuoteRE = regexp.MustCompile(`unmarshaling "(?:[^"\\]|\\.)*" into an? (\S+): .*$`)

// replyErrors is the outermost receiving middleware: every error a request
// ends with is answered by the table (see answer).
func replyErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return answer(method, err)
		}
		return res, nil
	}
}

// wireError answers an error reply the transport is about to send. Those
// that passed through replyErrors already have a code and keep it; the
// SDK's session checks, such as a call before initialize, send a plain
// error (code 0) before any middleware sees the request, and are refused
// as they stand.
func wireError(err error) *jsonrpc.Error {
	if we := (*jsonrpc.Error)(nil); !errors.As(err, &we) || we.Code == 0 {
		err = &sessionRefusal{err}
	}
	return errorFor("", err)
}

// A sessionRefusal is an error the SDK sent with code 0 before any
// handler ran.
type sessionRefusal struct{ err error }

func (r *sessionRefusal) Error() string { return r.err.Error() }
func (r *sessionRefusal) Unwrap() []error {
	return []error{errSessionRefused, r.err}
}

// shorten shortens s to at most n bytes on a UTF-8 boundary, marking the
// cut, so that client-supplied text quoted in a reply or a log line stays
// short.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// maxQuotedKey bounds a JSON key quoted back in an error message.
const maxQuotedKey = 40
