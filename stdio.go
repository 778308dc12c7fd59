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
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineTransport is an [mcp.Transport] that carries one JSON-RPC message per
// line, like the SDK's StdioTransport, but survives bad input. A line ends
// with "\n" or "\r\n"; a line that is empty or holds only spaces and tabs
// is ignored. Every other line is checked by [checkMessage]: a refused one
// is answered with its error (-32700 for anything that is not JSON, -32600
// for JSON that is not an acceptable message), a bad response is logged and
// dropped, and a line longer than [maxLineBytes] is skipped without being
// buffered and answered with -32600. In every case the session goes on.
// Only well-formed messages reach the SDK.
//
// On the way out it keeps two rules the SDK does not: a request the client
// cancelled is not answered (MCP), and no error reply carries code 0
// (JSON-RPC; see [answer]).
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
		pending:  make(map[jsonrpc.ID]callState),
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
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// lineConn is the connection of a [lineTransport].
type lineConn struct {
	t *lineTransport

	incoming chan jsonrpc.Message // from readLoop to Read
	readErr  error                // set by readLoop before it closes incoming

	writeMu    sync.Mutex
	clientGone bool // a write failed; nothing more is written

	closeOnce sync.Once
	closed    chan struct{}

	refused atomic.Int64 // messages refused so far

	// pending holds the ids of requests handed to the SDK and not yet
	// answered, and whether the client has cancelled each (its answer is
	// then dropped). At the end of the input, Read waits (up to drainGrace) for
	// them to be answered before it reports io.EOF, because the SDK drops
	// the replies to requests still running when its connection ends:
	// without this, "printf requests | practice-notes serve" would get no
	// answers at all.
	pendingMu sync.Mutex
	pending   map[jsonrpc.ID]callState
	answered  chan struct{} // signalled after each answer
}

func (c *lineConn) SessionID() string { return "" }

// Read returns the next well-formed message. At the end of the input it
// returns io.EOF once every request it returned has been answered, or after
// drainGrace; after Close it returns io.EOF at once.
//
// A request whose id is that of a request still in flight is answered here
// with -32600 under that id and not passed on: MCP forbids reusing an id
// within a session, and the SDK would answer it with a null id, which no
// client can match to its request, and could then drop the answer to the
// first one.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		select {
		case msg, ok := <-c.incoming:
			if !ok {
				c.drain(ctx)
				c.answerUnfinished()
				return nil, c.readErr
			}
			if req, ok := msg.(*jsonrpc.Request); ok && !c.track(req) {
				c.refuseReusedID(req.ID)
				continue
			}
			return msg, nil
		case <-c.closed:
			c.answerUnfinished()
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// errStopping answers a request still running when the session ends.
var errStopping = &jsonrpc.Error{
	Code:    jsonrpc.CodeInternalError,
	Message: "the server is stopping (its input ended, or it was told to stop) and this request did not finish in time",
}

// answerUnfinished answers every request handed to the SDK and not yet
// answered with errStopping. It is called as the session ends, just
// before Read reports it: from then on the SDK writes no answers, so
// without this a request still running would get none. An answer the SDK
// is already writing is left to it, and one it tries to write later is
// dropped (see Write), so each request is answered once. Cancelled
// requests stay unanswered.
func (c *lineConn) answerUnfinished() {
	c.pendingMu.Lock()
	var ids []jsonrpc.ID
	for id, s := range c.pending {
		if s == pendingCall {
			c.pending[id] = abandonedCall
			ids = append(ids, id)
		}
	}
	c.pendingMu.Unlock()
	if len(ids) == 0 {
		return
	}
	c.t.log.Warn("the session ended with requests still running; answered them with an error", "requests", len(ids))
	for _, id := range ids {
		data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: errStopping})
		if err != nil {
			continue // cannot happen: the id came from checkMessage
		}
		c.writeLine(data)
	}
}

// track records a request about to be handed to the SDK. It reports false,
// recording nothing, for a call whose id is already in use.
func (c *lineConn) track(req *jsonrpc.Request) bool {
	c.pendingMu.Lock()
	defer c.pendingMu.Unlock()
	switch {
	case req.IsCall():
		if s, inUse := c.pending[req.ID]; inUse && s != answeringCall {
			return false
		}
		c.pending[req.ID] = pendingCall
	case req.Method == "notifications/cancelled":
		if id, ok := cancelledID(req.Params); ok && c.pending[id] == pendingCall {
			c.pending[id] = cancelledCall
		}
	}
	return true
}

// refuseReusedID answers a request that reused the id of one in flight.
func (c *lineConn) refuseReusedID(id jsonrpc.ID) {
	raw, err := json.Marshal(id.Raw())
	if err != nil {
		raw = nil // cannot happen: checkMessage let only string and integer ids through
	}
	r := &refusedMessage{
		code:    jsonrpc.CodeInvalidRequest,
		message: "Invalid Request: a request with this id is still in flight; give each request an id of its own",
		id:      raw,
	}
	c.logRefusal(slog.Group("reply", slog.Int64("code", r.code), slog.String("reason", r.message)), 0)
	c.writeLine(r.reply())
}

// State of a request handed to the SDK and not yet answered.
type callState int

const (
	pendingCall   callState = iota + 1
	cancelledCall           // the client cancelled it: MCP says not to answer
	answeringCall           // its answer is being written; its id is free again
	abandonedCall           // answered by answerUnfinished; the SDK's answer is dropped
)

// cancelledID returns the request a notifications/cancelled names.
func cancelledID(params json.RawMessage) (jsonrpc.ID, bool) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	return id, err == nil && id.IsValid()
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

// Write writes msg as one line, except an answer to a request the client
// has cancelled, which is dropped. An error reply without a code is given
// one (see [wireError]). Once the client has stopped reading, Write
// writes nothing and returns nil: the session then ends through Read.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp {
		defer c.answer(resp.ID)
		c.pendingMu.Lock()
		state := c.pending[resp.ID]
		cancelled := state == cancelledCall
		if state == abandonedCall {
			delete(c.pending, resp.ID)
			c.pendingMu.Unlock()
			return nil // answered already
		}
		if _, ok := c.pending[resp.ID]; ok {
			// The client may reuse the id as soon as it reads the answer.
			c.pending[resp.ID] = answeringCall
		}
		c.pendingMu.Unlock()
		if cancelled {
			c.t.log.Debug("not answering a request the client cancelled")
			return nil
		}
		if resp.Error != nil {
			msg = &jsonrpc.Response{ID: resp.ID, Error: wireError(resp.Error)}
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	c.writeLine(data)
	return nil
}

// answer records that the request with id has been answered (or dropped).
// A request that reused the id once the answer was on its way is left in
// place.
func (c *lineConn) answer(id jsonrpc.ID) {
	c.pendingMu.Lock()
	if c.pending[id] == answeringCall {
		delete(c.pending, id)
	}
	c.pendingMu.Unlock()
	select {
	case c.answered <- struct{}{}:
	default:
	}
}

// writeLine writes data and a line break in one Write call. The first
// failure means the client has closed our output: it is logged once, in
// plain words, the session is ended, and nothing more is written.
func (c *lineConn) writeLine(data []byte) {
	line := make([]byte, 0, len(data)+1)
	line = append(append(line, data...), '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.clientGone {
		return
	}
	if _, err := c.t.out.Write(line); err != nil {
		c.clientGone = true
		// The OS error ("write /dev/stdout: broken pipe") says nothing the
		// user can act on beyond this.
		c.t.log.Warn("the client closed the server's output (stdout); ending the session")
		c.Close()
	}
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
		line, size, tooLong, err := readLine(r, maxLineBytes)
		if size > 0 {
			if msg := c.decode(line, size, tooLong); msg != nil {
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
				// Let Read's caller take msg on this thread before the next
				// read(2) blocks it: standard input is usually a blocking
				// pipe, and a goroutine made ready by one that then blocks
				// in a system call waits for another thread to wake up and
				// take it over, which cost a call on one small note a
				// sixth of its time.
				runtime.Gosched()
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

// readLine returns the next line without its line break ("\n" or "\r\n")
// and the line's length in bytes, line break included. When the line is longer than max bytes,
// it returns the first max bytes and tooLong, having read and discarded the
// rest of the line. err is io.EOF at the end of the input, after any final
// unterminated line.
func readLine(r *bufio.Reader, max int) (line []byte, size int64, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		size += int64(len(chunk))
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
		if !tooLong && bytes.HasSuffix(chunk, []byte("\n")) {
			line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
		}
		if !tooLong && len(line) > max {
			tooLong, line = true, line[:max]
		}
		return line, size, tooLong, err
	}
}

// decode checks one line and returns the message it holds, or answers the
// client with an error (or, for a bad response, only logs it) and returns
// nil.
func (c *lineConn) decode(line []byte, size int64, tooLong bool) jsonrpc.Message {
	if tooLong {
		c.refuse(checkLongMessage(line), size)
		return nil
	}
	if len(bytes.Trim(line, " \t")) == 0 {
		return nil // a blank line
	}
	msg, err := checkMessage(line)
	var (
		refused *refusedMessage
		dropped *droppedResponse
	)
	switch {
	case errors.As(err, &refused):
		c.refuse(refused, size)
	case errors.As(err, &dropped):
		c.logRefusal(slog.String("reason", dropped.Error()), size)
	}
	return msg
}

// refuse answers a refused line with its error. The reason is logged
// without the line's content.
func (c *lineConn) refuse(r *refusedMessage, size int64) {
	c.logRefusal(slog.Group("reply", slog.Int64("code", r.code), slog.String("reason", r.message)), size)
	c.writeLine(r.reply())
}

// logRefusal logs a refused message of size bytes (0: not counted). A
// client sending garbage in a loop must not flood the log: the first few
// refusals are logged, then every thousandth.
func (c *lineConn) logRefusal(why slog.Attr, size int64) {
	n := c.refused.Add(1)
	if n > 10 && n%1000 != 0 {
		return
	}
	attrs := []slog.Attr{why}
	if size > 0 {
		attrs = append(attrs, slog.Int64("bytes", size))
	}
	attrs = append(attrs, slog.Int64("refused_so_far", n))
	c.t.log.LogAttrs(context.Background(), slog.LevelWarn, "refused a message from the client", attrs...)
}
