package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/boundary/seam"
)

// auditLines returns the audit lines in a JSON log, without their time and
// duration, which vary.
func auditLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if m["msg"] != "call" {
			continue
		}
		if _, ok := m["duration"].(float64); !ok {
			t.Errorf("log line without a duration: %s", line)
		}
		delete(m, "time")
		delete(m, "duration")
		out = append(out, m)
	}
	return out
}

// auditCalls makes one call of each outcome and returns the log lines at
// the given level.
func auditCalls(t *testing.T, level slog.Level) (lines []map[string]any, raw string) {
	buf := new(lockedBuffer)
	log := slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: level}))
	cs := startServer(t, "practice-data", log).client("")
	ctx := context.Background()
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": "sign-in"}}); err != nil || res.IsError {
		t.Fatalf("search: %+v, %v", res, err)
	}
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": strings.Repeat("q", 201)}}); err != nil || !res.IsError {
		t.Fatalf("long query: %+v, %v; want a tool error", res, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "practice-notes:///sample-notes.md"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "practice-notes:///..%2Fsecret.md"}); err == nil {
		t.Fatal("traversal read succeeded")
	}
	cs.Close()
	raw = buf.String()
	return auditLines(t, raw), raw
}

// At the default level only refusals are logged, at warn.
func TestAuditRefusalsOnly(t *testing.T) {
	got, raw := auditCalls(t, slog.LevelInfo)
	want := []map[string]any{
		{"level": "WARN", "msg": "call", "method": "tools/call", "tool": "search_notes", "args_bytes": float64(213),
			"outcome": "tool_error", "reason": "invalid query: query is 201 characters long; the limit is 200"},
		{"level": "WARN", "msg": "call", "method": "resources/read", "resource": "practice-notes:///..%2Fsecret.md",
			"outcome": "protocol_error", "reason": "note refused: not a relative path inside the root"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("audit lines mismatch (-want +got):\n%s\nlog:\n%s", diff, raw)
	}
}

// At debug every call is logged, and still never the query or note text.
func TestAuditDebug(t *testing.T) {
	got, raw := auditCalls(t, slog.LevelDebug)
	type line struct{ Method, Tool, Resource, Outcome string }
	var lines []line
	for _, m := range got {
		s := func(k string) string { v, _ := m[k].(string); return v }
		switch s("method") {
		case "server/discover", "initialize", "notifications/initialized":
			// The handshake depends on the protocol revision the client picks.
			if s("outcome") != "ok" {
				t.Errorf("handshake line %v", m)
			}
			continue
		}
		lines = append(lines, line{s("method"), s("tool"), s("resource"), s("outcome")})
	}
	want := []line{
		{Method: "tools/call", Tool: "search_notes", Outcome: "ok"},
		{Method: "tools/call", Tool: "search_notes", Outcome: "tool_error"},
		{Method: "resources/read", Resource: "practice-notes:///sample-notes.md", Outcome: "ok"},
		{Method: "resources/read", Resource: "practice-notes:///..%2Fsecret.md", Outcome: "protocol_error"},
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("audit lines mismatch (-want +got):\n%s\nlog:\n%s", diff, raw)
	}
	for _, secret := range []string{"sign-in", "qqqq", "Clearing the session cookie", "Workshop practice notes"} {
		if strings.Contains(raw, secret) {
			t.Errorf("log holds %q:\n%s", secret, raw)
		}
	}
}

// TestRecoverPanics: a panic is answered with -32603 and logged on one
// line that names the method and the kind of panic but not the panic's
// text.
func TestRecoverPanics(t *testing.T) {
	var logBuf lockedBuffer
	log := slog.New(slog.NewTextHandler(&logBuf, nil))
	mw := recoverPanics(log)
	h := mw(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		panic(errors.New("/home/learner/secret/notes.md: PANIC-TEXT"))
	})
	res, err := h(context.Background(), "tools/call", nil)
	var we *jsonrpc.Error
	if res != nil || !errors.As(err, &we) || we.Code != jsonrpc.CodeInternalError {
		t.Fatalf("got %v, %v; want a -32603 error", res, err)
	}
	if strings.Contains(we.Message, "PANIC-TEXT") {
		t.Errorf("the reply quotes the panic: %q", we.Message)
	}
	out := logBuf.String()
	if strings.Count(out, "\n") != 1 || !strings.Contains(out, "method=tools/call") || !strings.Contains(out, "*errors.errorString") {
		t.Errorf("log should be one line naming the method and panic type:\n%s", out)
	}
	if strings.Contains(out, "PANIC-TEXT") || strings.Contains(out, "/home/") || strings.Contains(out, "/work/") {
		t.Errorf("the log quotes the panic or a source path:\n%s", out)
	}
	if !strings.Contains(out, "TestRecoverPanics") {
		t.Errorf("the log has no stack:\n%s", out)
	}

	// A runtime error keeps its message, which the runtime makes.
	logBuf = lockedBuffer{}
	h = mw(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		var s []int
		_ = s[3]
		return nil, nil
	})
	if _, err := h(context.Background(), "tools/call", nil); !errors.As(err, &we) {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(logBuf.String(), "index out of range [3] with length 0") {
		t.Errorf("runtime error not described:\n%s", logBuf.String())
	}
}

// gate is a handler that counts how many calls run at once and holds each
// until released.
type gate struct {
	running, peak atomic.Int64
	hold          chan struct{}
}

func (g *gate) handler(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
	if method == "tools/list" {
		return &mcp.ListToolsResult{}, nil
	}
	n := g.running.Add(1)
	defer g.running.Add(-1)
	for {
		p := g.peak.Load()
		if n <= p || g.peak.CompareAndSwap(p, n) {
			break
		}
	}
	select {
	case <-g.hold:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &mcp.CallToolResult{}, nil
}

func isBusy(res mcp.Result, err error) bool {
	if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
		return strings.Contains(r.Content[0].(*mcp.TextContent).Text, "busy")
	}
	var we *jsonrpc.Error
	return errors.As(err, &we) && we.Code == codeServerBusy
}

// TestLimiterBoundsRunningCalls starts 100 calls at once: no more than
// maxRunningCalls run together, and every one completes.
func TestLimiterBoundsRunningCalls(t *testing.T) {
	g := &gate{hold: make(chan struct{})}
	h := newCallLimiter(maxRunningCalls, maxWaitingCalls, time.Minute).middleware(g.handler)
	var wg sync.WaitGroup
	var ok atomic.Int64
	for range 100 {
		wg.Go(func() {
			if res, err := h(context.Background(), "tools/call", nil); err == nil && !res.(*mcp.CallToolResult).IsError {
				ok.Add(1)
			}
		})
	}
	waitFor(t, func() bool { return g.running.Load() == maxRunningCalls })
	time.Sleep(20 * time.Millisecond) // give any excess call time to start
	close(g.hold)
	wg.Wait()
	if p := g.peak.Load(); p != maxRunningCalls {
		t.Errorf("%d calls ran at once; want %d", p, maxRunningCalls)
	}
	if ok.Load() != 100 {
		t.Errorf("%d of 100 calls completed", ok.Load())
	}
}

// TestLimiterBusy: with the running and waiting places taken, a call is
// answered at once with a busy error; a waiting call gives up after the
// wait limit; a cancelled waiting call leaves at once.
func TestLimiterBusy(t *testing.T) {
	g := &gate{hold: make(chan struct{})}
	l := newCallLimiter(1, 2, 100*time.Millisecond)
	h := l.middleware(g.handler)
	go h(context.Background(), "tools/call", nil) // takes the one slot
	waitFor(t, func() bool { return g.running.Load() == 1 })

	// Two wait; one is cancelled, the other times out.
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan error, 1)
	go func() { _, err := h(ctx, "tools/call", nil); cancelled <- err }()
	timedOut := make(chan bool, 1)
	start := time.Now()
	go func() { timedOut <- isBusy(h(context.Background(), "resources/read", nil)) }()
	waitFor(t, func() bool { return l.waiting.Load() == 2 })

	// A third is refused without waiting.
	t0 := time.Now()
	if !isBusy(h(context.Background(), "tools/call", nil)) {
		t.Error("a call beyond the waiting limit was not refused as busy")
	}
	if d := time.Since(t0); d > 50*time.Millisecond {
		t.Errorf("refusing took %v; it should not wait", d)
	}
	// Calls that do not read notes are not limited.
	if res, err := h(context.Background(), "tools/list", nil); err != nil || res == nil {
		t.Errorf("tools/list was held by the limiter: %v", err)
	}

	cancel()
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("a cancelled waiting call returned %v", err)
		}
	case <-time.After(time.Second):
		t.Error("a cancelled waiting call did not return")
	}
	if !<-timedOut {
		t.Error("a call that waited past the limit was not answered busy")
	}
	if d := time.Since(start); d < 100*time.Millisecond || d > time.Second {
		t.Errorf("the timed-out call waited %v; want about 100ms", d)
	}
	close(g.hold)
	waitFor(t, func() bool { return len(l.slots) == 0 && l.waiting.Load() == 0 })
}

// TestLimiterSetsDeadline: a running call has a deadline even if the
// handler does not set one.
func TestLimiterSetsDeadline(t *testing.T) {
	h := newCallLimiter(1, 1, time.Second).middleware(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		dl, ok := ctx.Deadline()
		if !ok || time.Until(dl) > callDeadline {
			return nil, fmt.Errorf("deadline %v, %v", dl, ok)
		}
		return &mcp.CallToolResult{}, nil
	})
	if _, err := h(context.Background(), "tools/call", nil); err != nil {
		t.Error(err)
	}
}

// TestPanicInSearchIsAnswered makes a note read panic (through the fault
// seam) inside the real search_notes handler: the client gets an error,
// stdout carries only JSON-RPC, the server goes on, and the log holds no
// panic text.
func TestPanicInSearchIsAnswered(t *testing.T) {
	injectFaults(t, func(ctx context.Context, op seam.Op, name string) error {
		if op == seam.ReadFile && name == "boom.md" {
			panic("PANIC-TEXT from " + name)
		}
		return nil
	})
	s := startServer(t, noteTree(t, map[string]string{"boom.md": "x\n", "ok.md": "sign-in\n"}), nil)
	s.initialize()
	s.send(callLine(1, "sign-in"))
	msg := s.next() // checks the line is JSON-RPC
	e, _ := msg["error"].(map[string]any)
	if msg["id"] != float64(1) || e == nil || e["code"] != float64(-32603) {
		t.Fatalf("got %v; want a -32603 error for id 1", msg)
	}
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if msg := s.next(); msg["id"] != float64(2) || msg["result"] == nil {
		t.Fatalf("the server did not go on after a panic: %v", msg)
	}
	if log := s.log.String(); strings.Contains(log, "PANIC-TEXT") || !strings.Contains(log, "recovered from a panic") {
		t.Errorf("log:\n%s", log)
	}
}

// TestPipelinedCalls writes 1,000 calls without waiting for answers: each
// is answered exactly once, with the right result, and nothing is left
// running afterwards.
func TestPipelinedCalls(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	before := runtime.NumGoroutine()
	t.Run("calls", func(t *testing.T) {
		s := startServer(t, noteTree(t, sampleNotes), nil)
		s.initialize()
		go func() {
			for i := range n {
				s.send(callLine(i, "sign-in"))
			}
		}()
		seen := make(map[int]bool)
		for range n {
			msg := s.next()
			id, ok := msg["id"].(float64)
			if !ok || seen[int(id)] {
				t.Fatalf("unexpected or repeated answer %v", msg)
			}
			seen[int(id)] = true
			res, _ := msg["result"].(map[string]any)
			sc, _ := res["structuredContent"].(map[string]any)
			if m := resultMatches(sc); len(m) != 1 || m[0]["file"] != "a.md" {
				t.Fatalf("answer %v: %v", id, msg)
			}
		}
		if err := s.closeInput(time.Second); err != nil {
			t.Errorf("serveStdio returned %v", err)
		}
	})
	waitGoroutines(t, before)
}

// TestConcurrentCalls makes 100 calls at once through the SDK client: all
// are answered correctly, and nothing is left running afterwards.
func TestConcurrentCalls(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Run("calls", func(t *testing.T) {
		cs := startServer(t, noteTree(t, sampleNotes), nil).client("")
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		for i := range 100 {
			wg.Go(func() {
				q := "sign-in"
				if i%2 == 1 {
					q = "nothing to see"
				}
				res, errText, err := callSearch(context.Background(), cs, q)
				switch {
				case err != nil:
					errs <- err
				case errText != "":
					errs <- errors.New(errText)
				case len(resultMatches(res)) != 1:
					errs <- fmt.Errorf("%q: %v", q, res)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	})
	waitGoroutines(t, before)
}

// TestCancelledSlowCall cancels a search over slow notes: reading stops
// within a few notes, the call ends, and no goroutine is left behind.
func TestCancelledSlowCall(t *testing.T) {
	before := runtime.NumGoroutine()
	slow := &slowReads{d: 20 * time.Millisecond, ignoreCtx: true}
	slow.install(t)
	t.Run("call", func(t *testing.T) {
		cs := startServer(t, noteTree(t, manyNotes(500)), nil).client("")
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { _, _, err := callSearch(ctx, cs, "anything"); done <- err }()
		waitFor(t, func() bool { return slow.reads.Load() >= 5 })
		cancel()
		atCancel := slow.reads.Load()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("the client got %v", err)
		}
		time.Sleep(300 * time.Millisecond)
		settled := slow.reads.Load()
		time.Sleep(300 * time.Millisecond)
		if slow.reads.Load() != settled {
			t.Fatalf("notes were still being read 300ms after the cancellation (%d, then %d)", settled, slow.reads.Load())
		}
		// Each reader may be in the middle of one note, and the cancellation
		// takes a moment to arrive.
		if extra := settled - atCancel; extra > int64(2*runtime.GOMAXPROCS(0)+4) {
			t.Errorf("%d notes were read after the cancellation; want a handful", extra)
		}
	})
	waitGoroutines(t, before)
}

// metaLine is a request that names its protocol revision in _meta, as
// 2026-07-28 requests do instead of an initialize handshake.
func metaLine(id int, method, revision string) string {
	v, _ := json.Marshal(revision)
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method +
		`","params":{"_meta":{"` + mcp.MetaKeyProtocolVersion + `":` + string(v) + `,"` + mcp.MetaKeyClientCapabilities + `":{}}}}`
}

// errorOf returns the error object of a reply, failing when it has none.
func errorOf(t *testing.T, msg map[string]any) map[string]any {
	t.Helper()
	e, ok := msg["error"].(map[string]any)
	if !ok {
		t.Fatalf("reply %v is not an error", msg)
	}
	return e
}

// TestUnsupportedVersionData: a request naming a revision the server does
// not speak gets -32022 with the data the protocol defines, the revisions
// it speaks and the one asked for, clipped; nothing else.
func TestUnsupportedVersionData(t *testing.T) {
	long := "2099-" + strings.Repeat("9", 200)
	for _, tt := range []struct{ requested, want string }{
		{"2099-01-01", "2099-01-01"},
		{long, shorten(long, maxQuotedKey)},
	} {
		s := startServer(t, noteTree(t, manyNotes(1)), nil)
		s.send(metaLine(1, "tools/list", tt.requested))
		msg := s.next()
		e := errorOf(t, msg)
		if msg["id"] != float64(1) || e["code"] != float64(mcp.CodeUnsupportedProtocolVersion) {
			t.Fatalf("got %v; want -32022 for request 1", msg)
		}
		want := map[string]any{
			"supported": []any{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"},
			"requested": tt.want,
		}
		if diff := cmp.Diff(want, e["data"]); diff != "" {
			t.Errorf("data of the -32022 reply (-want +got):\n%s", diff)
		}
	}
}

// TestMixedConnection: a request carrying 2026-07-28 in _meta initializes
// the connection by itself, so an initialize after it is refused with
// -32600 and a reason that says so; the other order works, each request
// answered at the revision it names.
func TestMixedConnection(t *testing.T) {
	s := startServer(t, noteTree(t, manyNotes(1)), nil)
	s.send(metaLine(1, "tools/list", "2026-07-28"))
	if msg := s.next(); msg["id"] != float64(1) || msg["result"] == nil {
		t.Fatalf("the 2026-07-28 request got %v", msg)
	}
	s.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	msg := s.next()
	e := errorOf(t, msg)
	if msg["id"] != float64(2) || e["code"] != float64(jsonrpc.CodeInvalidRequest) ||
		!strings.Contains(e["message"].(string), "already initialized") || strings.Contains(e["message"].(string), "duplicate") {
		t.Fatalf("the initialize after a 2026-07-28 request got %v; want -32600 saying the connection is already initialized", msg)
	}
	if !strings.Contains(s.log.String(), "outcome=protocol_error") {
		t.Errorf("the refused initialize was not logged; log:\n%s", s.log)
	}

	s = startServer(t, noteTree(t, manyNotes(1)), nil)
	s.initialize()
	s.send(metaLine(3, "tools/list", "2026-07-28"))
	if msg := s.next(); msg["id"] != float64(3) || msg["result"] == nil {
		t.Fatalf("the 2026-07-28 request after initialize got %v", msg)
	}
	s.send(`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if e := errorOf(t, s.next()); !strings.Contains(e["message"].(string), "already initialized") {
		t.Errorf("a second initialize got %v; want the same refusal", e)
	}
}
