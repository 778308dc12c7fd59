package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of the stdio transport.
const (
	// maxLineBytes is the longest input line accepted, in bytes, without its
	// line break. A longer line is read and thrown away up to its line break,
	// never held whole, and answered with an Invalid Request error.
	maxLineBytes = 1 << 20
	// maxJSONDepth is how deeply objects and arrays may nest in one message.
	// MCP messages nest a handful of levels.
	maxJSONDepth = 64
	// idScanBytes is how much of an over-long line is searched for its "id",
	// so that the error reply can name the request it refuses.
	idScanBytes = 64 << 10
)

// JSON-RPC error codes used by the transport.
const (
	codeParseError     = jsonrpc.CodeParseError     // -32700: not JSON
	codeInvalidRequest = jsonrpc.CodeInvalidRequest // -32600: JSON, but not a message we accept
	codeNoReply        = 0                          // refused, logged, not answered
)

// lineTransport is an [mcp.Transport] that carries one JSON-RPC message per
// line, like the SDK's StdioTransport, but survives bad input: a line that
// is not JSON is answered with a -32700 Parse error, a line that is JSON but
// not an acceptable JSON-RPC message with a -32600 Invalid Request error, and
// a line longer than [maxLineBytes] is skipped without being buffered; in
// every case the session goes on. Only well-formed messages reach the SDK.
//
// A message is refused (-32600) when it is not a JSON object (batches are not
// supported; MCP dropped them in 2025-06-18), repeats a key in the message
// or in its params (the SDK would silently keep the last one, so
// {"name":"a","name":"b"} would call tool b), nests deeper than 64 levels,
// is not JSON-RPC 2.0, or is a request whose id is null, fractional, outside
// ±2^53 or not a string or number. A message that looks like a response
// (from the client, to a request of ours) is never answered: a bad one is
// logged and dropped. Deeper objects, such as a tool's
// arguments, are left to their handlers: search_notes refuses a repeated
// argument itself, as a tool error the model can read. Blank lines are
// ignored. Input must be UTF-8.
//
// Every message written, from the SDK or from the transport itself, is
// written whole, under one lock, with one Write call.
type lineTransport struct {
	in  io.Reader
	out io.Writer
	log *slog.Logger

	// eof is closed when the input has ended (end of file, read error or
	// Close); serve uses it to bound the time left to calls in flight.
	eof     chan struct{}
	eofOnce sync.Once

	mu   sync.Mutex
	conn *lineConn // set by Connect
}

func newLineTransport(in io.Reader, out io.Writer, log *slog.Logger) *lineTransport {
	return &lineTransport{in: in, out: out, log: log, eof: make(chan struct{})}
}

// inputDone is closed once no more messages will be read.
func (t *lineTransport) inputDone() <-chan struct{} { return t.eof }

func (t *lineTransport) inputEnded() { t.eofOnce.Do(func() { close(t.eof) }) }

// stop ends the input as if the client had closed it: the SDK then cancels
// the calls in flight and ends the session.
func (t *lineTransport) stop() {
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c != nil {
		c.Close()
	}
	t.inputEnded()
}

// Connect implements [mcp.Transport]. It may be called once.
func (t *lineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c := &lineConn{
		t:        t,
		incoming: make(chan jsonrpc.Message),
		closed:   make(chan struct{}),
		pending:  make(map[jsonrpc.ID]bool),
		answered: make(chan struct{}, 1),
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn != nil {
		return nil, errors.New("lineTransport: Connect called twice")
	}
	t.conn = c
	select {
	case <-t.eof:
		c.Close() // stopped before it started
	default:
		go c.readLoop()
	}
	return c, nil
}

// serveOSStdio serves MCP on the process's stdin and stdout with a
// [lineTransport]; see [serveStdio].
func serveOSStdio(ctx context.Context, server *mcp.Server, log *slog.Logger) error {
	// Without this, a write to a stdout the client has closed would kill the
	// process with SIGPIPE; ignored, the write fails and the session ends.
	signal.Ignore(syscall.SIGPIPE)
	return serveStdio(ctx, server, newLineTransport(os.Stdin, os.Stdout, log), log)
}

// stopGrace is how long calls in flight have to finish once the input has
// ended or a signal has come, before the server exits without them.
// It starts after drainGrace when the input ends.
const stopGrace = 500 * time.Millisecond

// serveStdio runs server over t until the client closes the input or ctx
// is cancelled (by SIGINT or SIGTERM). Either way the calls in flight are
// cancelled and get stopGrace to finish; then serveStdio returns, so the
// process exits within a second. A client that stops reading our output
// has gone away too: that ends the session without an error.
func serveStdio(ctx context.Context, server *mcp.Server, t *lineTransport, log *slog.Logger) error {
	done := make(chan error, 1)
	go func() {
		// Not ctx: on cancellation Server.Run waits for calls in flight
		// without cancelling them. Ending the input cancels them.
		done <- server.Run(context.WithoutCancel(ctx), t)
	}()
	select {
	case err := <-done:
		return sessionErr(err)
	case <-ctx.Done():
		log.Debug("stopping on a signal")
		t.stop()
	case <-t.inputDone():
	}
	grace := stopGrace
	if ctx.Err() == nil {
		grace += drainGrace // the input ended: requests already read are answered first
	}
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case err := <-done:
		return sessionErr(err)
	case <-timer.C:
		log.Warn("calls were still running when the input ended; exiting without them", "waited", stopGrace)
		return nil
	}
}

// sessionErr drops the error of a session that ended because the client
// went away.
func sessionErr(err error) error {
	if errors.Is(err, errClientGone) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// errClientGone wraps a failure to write to the client.
var errClientGone = errors.New("the client stopped reading")

// lineConn is the connection of a [lineTransport].
type lineConn struct {
	t *lineTransport

	incoming chan jsonrpc.Message // from readLoop to Read
	readErr  error                // set by readLoop before it closes incoming

	writeMu  sync.Mutex
	writeErr error // the first write failure; later writes fail at once

	closeOnce sync.Once
	closed    chan struct{}

	refused int // lines refused so far; used by readLoop only

	// pending holds the ids of requests handed to the SDK and not yet
	// answered. At the end of the input, Read waits (up to drainGrace) for
	// them to be answered before it reports io.EOF, because the SDK drops
	// the replies to requests still running when its connection ends:
	// without this, "printf requests | practice-notes serve" would get no
	// answers at all.
	pendingMu sync.Mutex
	pending   map[jsonrpc.ID]bool
	answered  chan struct{} // signalled after each answer
}

func (c *lineConn) SessionID() string { return "" }

// Read returns the next well-formed message. At the end of the input it
// returns io.EOF once every request it returned has been answered, or after
// drainGrace; after Close it returns io.EOF at once.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg, ok := <-c.incoming:
		if !ok {
			c.drain(ctx)
			return nil, c.readErr
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.pendingMu.Lock()
			c.pending[req.ID] = true
			c.pendingMu.Unlock()
		}
		return msg, nil
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// drainGrace is how long requests already read may take to be answered
// once the input has ended.
const drainGrace = 400 * time.Millisecond

// drain waits until no request is waiting for its answer, for at most
// drainGrace.
func (c *lineConn) drain(ctx context.Context) {
	timer := time.NewTimer(drainGrace)
	defer timer.Stop()
	for {
		c.pendingMu.Lock()
		n := len(c.pending)
		c.pendingMu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-timer.C:
			return
		case <-c.closed:
			return
		case <-ctx.Done():
			return
		}
	}
}

// Write writes msg as one line.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	err = c.writeLine(data)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.pendingMu.Lock()
		delete(c.pending, resp.ID)
		c.pendingMu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

func (c *lineConn) writeLine(data []byte) error {
	line := make([]byte, 0, len(data)+1)
	line = append(append(line, data...), '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.writeErr != nil {
		return c.writeErr
	}
	if _, err := c.t.out.Write(line); err != nil {
		// The client has stopped reading; nothing more can be answered.
		c.writeErr = fmt.Errorf("%w: %w", errClientGone, err)
		c.Close()
		return c.writeErr
	}
	return nil
}

// Close stops reading: Read returns io.EOF from now on. It does not close
// the input, which may be os.Stdin; a read already waiting on it is left to
// end with the process.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.t.inputEnded()
	})
	return nil
}

// readLoop reads lines, answers bad ones itself and hands good ones to Read.
func (c *lineConn) readLoop() {
	defer c.t.inputEnded()
	r := bufio.NewReaderSize(c.t.in, 64<<10)
	for {
		line, tooLong, err := readLine(r, maxLineBytes)
		if len(line) > 0 || tooLong {
			if msg := c.decode(line, tooLong); msg != nil {
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.t.log.Warn("reading from the client failed; ending the session", "error", err)
			}
			c.readErr = io.EOF
			close(c.incoming)
			return
		}
	}
}

// readLine returns the next line without its line break ("\n" or "\r\n").
// When the line is longer than max bytes, it returns the first max bytes and
// tooLong, having read and discarded the rest of the line. err is io.EOF at
// the end of the input, after any final unterminated line.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if room := max + 2 - len(line); len(chunk) <= room { // 2 for "\r\n"
				line = append(line, chunk...)
			} else {
				tooLong = true
				line = append(line, chunk[:room]...)[:max]
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !tooLong {
			line = bytes.TrimSuffix(line, []byte("\n"))
			line = bytes.TrimSuffix(line, []byte("\r"))
			if len(line) > max {
				tooLong, line = true, line[:max]
			}
		}
		return line, tooLong, err
	}
}

// decode checks one line and returns the message it holds, or answers the
// client with an error and returns nil.
func (c *lineConn) decode(line []byte, tooLong bool) jsonrpc.Message {
	if tooLong {
		id := scanID(line[:min(len(line), idScanBytes)])
		c.reject(id, codeInvalidRequest, fmt.Sprintf("Invalid Request: message longer than %d bytes", maxLineBytes), fmt.Sprintf("more than %d", maxLineBytes))
		return nil
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	msg, rej := checkMessage(line)
	if rej != nil {
		c.reject(rej.id, rej.code, rej.message, len(line))
		return nil
	}
	return msg
}

// reject writes an error response for a refused line. The reason is logged
// without the line's content.
func (c *lineConn) reject(id json.RawMessage, code int64, message string, size any) {
	if id == nil {
		id = json.RawMessage("null")
	}
	// Only readLoop calls reject. A client sending garbage in a loop must
	// not flood the log: the first few refusals are logged, then every
	// thousandth.
	c.refused++
	if c.refused <= 10 || c.refused%1000 == 0 {
		c.t.log.Warn("refused a message from the client", "code", code, "reason", message, "bytes", size, "refused_so_far", c.refused)
	}
	if code == codeNoReply {
		return
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: message}})
	if err != nil {
		return // cannot happen: id is a checked JSON scalar
	}
	c.writeLine(data)
}

// rejection says why a line was refused, and the request id to answer, if
// one could be read (nil means null).
type rejection struct {
	code    int64
	message string
	id      json.RawMessage
}

// checkMessage decides whether line holds an acceptable JSON-RPC message
// and decodes it.
func checkMessage(line []byte) (jsonrpc.Message, *rejection) {
	if !utf8.Valid(line) {
		return nil, &rejection{code: codeParseError, message: "Parse error: the message is not valid UTF-8"}
	}
	// Syntax first: a line that is not JSON is a Parse error even when a
	// repeated key comes before the fault.
	if !json.Valid(line) {
		return nil, &rejection{code: codeParseError, message: "Parse error: the message is not valid JSON"}
	}
	sc, err := scanJSON(line, false)
	if err != nil {
		var le *limitError
		if errors.As(err, &le) {
			return nil, notAnswered(line, &rejection{code: codeInvalidRequest, message: "Invalid Request: " + le.msg, id: sc.id})
		}
		return nil, &rejection{code: codeParseError, message: "Parse error: the message is not valid JSON"}
	}
	if sc.kind != '{' {
		msg := "Invalid Request: a message must be a JSON object"
		if sc.kind == '[' {
			msg = "Invalid Request: batches are not supported; send one message per line"
		}
		return nil, &rejection{code: codeInvalidRequest, message: msg}
	}
	id := sc.id
	if sc.idBad {
		id = nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, notAnswered(line, &rejection{code: codeInvalidRequest, message: "Invalid Request: not a JSON-RPC 2.0 message", id: id})
	}
	if req, ok := msg.(*jsonrpc.Request); ok && sc.hasID {
		// A request with an id must be answered under that very id, so it
		// must survive the SDK's conversion to float64 and back.
		if sc.idBad || !req.ID.IsValid() {
			return nil, &rejection{code: codeInvalidRequest, message: "Invalid Request: the id must be a string or an integer within ±2^53"}
		}
	}
	return msg, nil
}

// notAnswered returns rej, or a rejection that is not answered when the
// JSON object in line looks like a response (a "result" or "error" key and
// no "method"): a response must never be answered, or two peers could
// answer each other's errors for ever.
func notAnswered(line []byte, rej *rejection) *rejection {
	var top map[string]json.RawMessage
	if json.Unmarshal(line, &top) != nil {
		return rej
	}
	_, method := top["method"]
	_, result := top["result"]
	_, failure := top["error"]
	if !method && (result || failure) {
		return &rejection{code: codeNoReply, message: "dropped a response that is not acceptable (" + rej.message + ")"}
	}
	return rej
}

// limitError is a structural limit a valid JSON text broke.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

// jsonScan is what scanJSON learnt about a JSON text.
type jsonScan struct {
	kind  byte            // '{', '[' or 0 for a scalar
	hasID bool            // the top-level object has an "id" key
	id    json.RawMessage // its value, when it is a usable id (string or integer)
	idBad bool            // the "id" value is not usable as an id
}

// scanJSON walks one JSON text token by token. It fails on a syntax error,
// on trailing data, on a key repeated in the message object or its "params"
// object, and on nesting deeper than maxJSONDepth (the last two as a
// *limitError). It records the
// top-level "id". With partial set, data is a prefix of a longer text:
// scanning stops quietly where the prefix ends, and an id is kept only once
// the token after it has been read.
func scanJSON(data []byte, partial bool) (jsonScan, error) {
	var sc jsonScan
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object  bool
		wantKey bool
		keys    map[string]struct{} // nil when keys are not checked
	}
	var (
		stack     []frame
		topKey    string // the key whose value is being read, at depth 1
		pendingID json.RawMessage
		pendingOK bool
	)
	commitID := func() {
		if pendingOK {
			sc.id, pendingOK = pendingID, false
		}
	}
	// valueDone marks the end of a value in the enclosing container.
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	for started := false; ; started = true {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if !started {
				return sc, errors.New("empty")
			}
			if len(stack) > 0 && !partial {
				return sc, io.ErrUnexpectedEOF
			}
			if !partial {
				commitID()
			}
			return sc, nil
		}
		if err != nil {
			if partial {
				return sc, nil
			}
			return sc, err
		}
		commitID()
		if started && len(stack) == 0 {
			return sc, errors.New("trailing data")
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:n-1]
				valueDone()
				continue
			}
			key, ok := tok.(string)
			if !ok {
				return sc, errors.New("object key is not a string")
			}
			if keys := stack[n-1].keys; keys != nil {
				if _, dup := keys[key]; dup {
					if n == 1 && key == "id" {
						sc.id, sc.idBad = nil, true
					}
					return sc, &limitError{msg: "key " + shortQuote(key) + " appears more than once in one object"}
				}
				keys[key] = struct{}{}
			}
			stack[n-1].wantKey = false
			if n == 1 {
				topKey = key
			}
			continue
		}
		isID := len(stack) == 1 && stack[0].object && topKey == "id"
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if len(stack) == 0 {
					sc.kind = byte(v)
				}
				if isID {
					sc.hasID, sc.idBad = true, true
				}
				if len(stack) >= maxJSONDepth {
					return sc, &limitError{msg: fmt.Sprintf("objects and arrays nest deeper than %d levels", maxJSONDepth)}
				}
				f := frame{object: v == '{', wantKey: v == '{'}
				if f.object && (len(stack) == 0 || len(stack) == 1 && topKey == "params") {
					f.keys = make(map[string]struct{})
				}
				stack = append(stack, f)
			case '}', ']':
				stack = stack[:len(stack)-1]
				valueDone()
			}
			continue
		case string:
			if isID {
				sc.hasID = true
				pendingID, _ = json.Marshal(v)
				pendingOK = true
			}
		case json.Number:
			if isID {
				sc.hasID = true
				if i, err := strconv.ParseInt(string(v), 10, 64); err == nil && -(1<<53) <= i && i <= 1<<53 {
					pendingID, pendingOK = json.RawMessage(strconv.FormatInt(i, 10)), true
				} else {
					sc.idBad = true
				}
			}
		default: // bool or null
			if isID {
				sc.hasID, sc.idBad = true, true
			}
		}
		valueDone()
	}
}

// scanID returns the top-level "id" of a message that may be cut short, if
// it can be read and is usable, or nil.
func scanID(prefix []byte) json.RawMessage {
	if !utf8.Valid(prefix) {
		// The cut may have split a rune; drop up to three trailing bytes.
		for i := 0; i < utf8.UTFMax-1 && len(prefix) > 0 && !utf8.Valid(prefix); i++ {
			prefix = prefix[:len(prefix)-1]
		}
		if !utf8.Valid(prefix) {
			return nil
		}
	}
	sc, _ := scanJSON(prefix, true)
	if sc.idBad || sc.kind != '{' {
		return nil
	}
	return sc.id
}

// shortQuote quotes s for an error message, cut to 40 runes.
func shortQuote(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return strconv.Quote(s)
}
