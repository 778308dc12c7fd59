package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of the HTTP listener. A search_notes call is a few hundred bytes;
// the body limit leaves room for client metadata and nothing more.
const (
	maxHTTPBody       = 256 << 10
	maxHTTPHeader     = 64 << 10
	httpReadTimeout   = 30 * time.Second
	httpWriteTimeout  = 60 * time.Second
	httpIdleTimeout   = 2 * time.Minute
	httpShutdownGrace = 5 * time.Second
)

// mcpPath is where the Streamable HTTP endpoint is served.
const mcpPath = "/mcp"

// checkHTTPAddr accepts only a loopback host with a port, such as
// 127.0.0.1:8765, [::1]:8765 or localhost:8765. The server has no
// authentication, so it must never be reachable from another machine; an
// empty host (":8765") would listen on every interface.
func checkHTTPAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("give a loopback address and port, such as 127.0.0.1:8765")
	}
	if port == "" {
		return errors.New("give a port, such as 127.0.0.1:8765 (0 picks a free one)")
	}
	const why = "this server has no authentication, so it listens only on 127.0.0.1, [::1] or localhost"
	switch ip, err := netip.ParseAddr(host); {
	case host == "localhost":
	case host == "":
		return fmt.Errorf("no host means every network interface; %s", why)
	case err != nil || !ip.IsLoopback():
		return fmt.Errorf("%s is not a loopback address; %s", visible(host), why)
	}
	// Only digits: net.Listen would also take a service name ("http"), and
	// would fail later, in its own words, on a sign, a space or 99999.
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("port %s is not a number from 0 to 65535 (0 picks a free one)", strconv.Quote(port))
	}
	return nil
}

// serveHTTP serves s over Streamable HTTP at addr until ctx is done.
// checkHTTPAddr must have accepted addr.
func serveHTTP(ctx context.Context, addr string, s *mcp.Server, log *slog.Logger) error {
	if err := checkHTTPAddr(addr); err != nil {
		return err
	}
	network := "tcp"
	if strings.HasPrefix(addr, "localhost:") {
		// "localhost" may resolve to a non-loopback address on a badly
		// configured machine; listen on the loopback address itself.
		addr, network = "127.0.0.1"+strings.TrimPrefix(addr, "localhost"), "tcp4"
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		// The reason alone ("bind: address already in use"); Go's own
		// message repeats the address in its words.
		var op *net.OpError
		if errors.As(err, &op) && op.Err != nil {
			err = op.Err
		}
		return fmt.Errorf("serve -http %q: cannot listen there (%w); is another server using the port? Pick another, or 0 for a free one", addr, err)
	}
	srv := &http.Server{
		Handler:           newHTTPHandler(s, log),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       httpReadTimeout,
		WriteTimeout:      httpWriteTimeout,
		IdleTimeout:       httpIdleTimeout,
		MaxHeaderBytes:    maxHTTPHeader,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info("serving MCP over Streamable HTTP", "url", (&url.URL{Scheme: "http", Host: ln.Addr().String(), Path: mcpPath}).String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), httpShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// newHTTPHandler returns the handler for the whole listener: the MCP
// endpoint at /mcp behind Origin checks, and 404 elsewhere.
//
// The SDK's handler refuses a non-loopback Host header (DNS rebinding
// protection, left on) and bounds request bodies, but does not look at
// Origin, so a web page the user visits could post to it; the Origin
// checks below refuse that. The server is stateless: each request is
// served on its own, so both the 2025 handshake and 2026-07-28 requests
// work, and no session state is kept for clients that go away.
func newHTTPHandler(s *mcp.Server, log *slog.Logger) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		Logger:              log,
		MaxRequestBodyBytes: maxHTTPBody,
	})
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(forbidOrigin))
	mux := http.NewServeMux()
	mux.Handle(mcpPath, checkOrigin(cop.Handler(checkBody(h, log))))
	return mux
}

// checkBody applies to a POSTed message the checks the stdio transport
// applies to a line (see [checkMessage]), so that both modes accept and
// refuse the same messages: a refused one is answered with 400 Bad Request
// and its JSON-RPC error, id included when it has one; a bad response with
// 400 alone. The body is read once, up to maxHTTPBody; a longer one is
// refused with 413.
func checkBody(next http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxHTTPBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				http.Error(w, fmt.Sprintf("Request Entity Too Large: the body is over %d bytes", maxHTTPBody), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "Bad Request: the body could not be read", http.StatusBadRequest)
			return
		}
		_, err = checkMessage(body)
		var (
			refused *refusedMessage
			dropped *droppedResponse
		)
		switch {
		case errors.As(err, &refused):
			log.Warn("refused a message from the client", slog.Group("reply", slog.Int64("code", refused.code), slog.String("reason", refused.message)), slog.Int("bytes", len(body)))
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(refused.reply())
			return
		case errors.As(err, &dropped):
			log.Warn("refused a message from the client", slog.String("reason", dropped.Error()), slog.Int("bytes", len(body)))
			http.Error(w, "Bad Request: "+dropped.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		er := &errorReplies{ResponseWriter: w}
		next.ServeHTTP(er, r)
		er.finish()
	})
}

// errorReplies passes every JSON-RPC error reply the SDK's handler writes
// through the table (see [wireError]), as the stdio transport does: the
// SDK refuses some requests before any middleware sees them, and quotes
// what the client sent. A reply is a JSON body or an event of a
// text/event-stream body; either is held until it is whole.
type errorReplies struct {
	http.ResponseWriter
	held   []byte
	header bool // WriteHeader has been passed on
	stream bool // the body is a text/event-stream
}

func (e *errorReplies) WriteHeader(code int) {
	if e.header {
		return
	}
	e.header = true
	h := e.Header()
	e.stream = strings.HasPrefix(h.Get("Content-Type"), "text/event-stream")
	if !e.stream {
		h.Del("Content-Length") // the held body may be rewritten
	}
	e.ResponseWriter.WriteHeader(code)
}

func (e *errorReplies) Write(b []byte) (int, error) {
	e.WriteHeader(http.StatusOK)
	e.held = append(e.held, b...)
	if e.stream {
		// Pass on every whole event.
		if i := bytes.LastIndex(e.held, []byte("\n\n")); i >= 0 {
			if _, err := e.ResponseWriter.Write(rewriteEvents(e.held[:i+2])); err != nil {
				return 0, err
			}
			e.held = append(e.held[:0], e.held[i+2:]...)
		}
	}
	return len(b), nil
}

// Flush passes on what is whole, for the SDK's event stream.
func (e *errorReplies) Flush() {
	if f, ok := e.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (e *errorReplies) Unwrap() http.ResponseWriter { return e.ResponseWriter }

// finish writes what is still held: a JSON body, rewritten, or the end of
// an event stream as it is.
func (e *errorReplies) finish() {
	if len(e.held) == 0 {
		return
	}
	if !e.stream {
		e.held = rewriteReply(e.held)
	}
	e.ResponseWriter.Write(e.held)
}

// rewriteEvents rewrites the data line of each event that holds an error
// reply.
func rewriteEvents(events []byte) []byte {
	lines := bytes.Split(events, []byte("\n"))
	for i, l := range lines {
		if data, ok := bytes.CutPrefix(l, []byte("data: ")); ok {
			lines[i] = append([]byte("data: "), rewriteReply(data)...)
		}
	}
	return bytes.Join(lines, []byte("\n"))
}

// rewriteReply returns body with its error, if it is an error reply,
// answered by the table; anything else as it is.
func rewriteReply(body []byte) []byte {
	msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(body))
	resp, ok := msg.(*jsonrpc.Response)
	if err != nil || !ok || resp.Error == nil {
		return body
	}
	out, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: resp.ID, Error: wireError(resp.Error)})
	if err != nil {
		return body
	}
	return out
}

// checkOrigin refuses any request whose Origin header names another site
// than the one addressed. http.CrossOriginProtection lets GET, HEAD and
// OPTIONS through, and checks the rest, mostly by Sec-Fetch-Site; this
// covers every method, for clients that send Origin but not Sec-Fetch-Site.
func checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Values("Origin"); len(origin) > 0 && !sameOrigin(origin, r.Host) {
			forbidOrigin(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether the Origin header values are exactly one
// http origin for host, the request's Host header.
func sameOrigin(origin []string, host string) bool {
	if len(origin) != 1 {
		return false
	}
	u, err := url.Parse(origin[0])
	return err == nil && u.Scheme == "http" && u.Host == host && u.User == nil &&
		(u.Path == "" || u.Path == "/") && u.RawQuery == "" && u.Fragment == ""
}

func forbidOrigin(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "Forbidden: cross-origin request", http.StatusForbidden)
}
