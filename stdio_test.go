package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"practice-notes/boundary"
	"practice-notes/boundary/seam"
	"practice-notes/search"
	"practice-notes/tests/corpus"
)

var sampleNotes = map[string]string{
	"a.md": "# N1 · Loop\n\nThe sign-in page loops.\n",
	"b.md": "# N2 · Other\n\nNothing to see.\n",
}

// TestTransportAnswersBadLines sends each bad line, then a ping: the bad
// line must get the error reply (and only that), and the session must go on.
func TestTransportAnswersBadLines(t *testing.T) {
	deep := strings.Repeat("[", 70) + strings.Repeat("]", 70)
	tests := []struct {
		name string
		line string
		code float64
		id   any // nil means the reply's id is null
	}{
		{"not JSON", `not json`, -32700, nil},
		{"cut short", `{"jsonrpc":"2.0","id":5,"method":"LINE-MARKER"`, -32700, float64(5)},
		{"two values", `{"jsonrpc":"2.0","id":5,"method":"ping"}{"a":1}`, -32700, float64(5)},
		{"trailing garbage", `{"jsonrpc":"2.0","id":5,"method":"ping"} x`, -32700, float64(5)},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"x\":\"\xff\"}}", -32700, float64(5)},
		{"single quotes", `{'jsonrpc':'2.0'}`, -32700, nil},
		{"NUL byte", "{\"jsonrpc\":\"2.0\",\x00\"id\":5}", -32700, nil},
		{"number", `42`, -32600, nil},
		{"string", `"ping"`, -32600, nil},
		{"null", `null`, -32600, nil},
		{"batch", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, -32600, nil},
		{"empty batch", `[]`, -32600, nil},
		{"empty object", `{}`, -32600, nil},
		{"wrong version", `{"jsonrpc":"1.0","id":5,"method":"ping"}`, -32600, float64(5)},
		{"no version", `{"id":"x","method":"ping"}`, -32600, "x"},
		{"method not a string", `{"jsonrpc":"2.0","id":5,"method":7}`, -32600, float64(5)},
		{"duplicate method", `{"jsonrpc":"2.0","id":5,"method":"ping","method":"tools/list"}`, -32600, float64(5)},
		{"duplicate id", `{"jsonrpc":"2.0","id":5,"method":"ping","id":6}`, -32600, nil},
		{"duplicate escaped key", `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":1,"\u0061":2}}`, -32600, float64(5)},
		{"duplicate tool name", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_notes","name":"other","arguments":{"query":"a"}}}`, -32600, float64(5)},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, nil},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, nil},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, -32600, nil},
		{"huge id", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, -32600, nil},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, nil},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, nil},
		{"too deep", `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":` + deep + `}}`, -32600, float64(5)},
	}
	s := startServer(t, noteTree(t, sampleNotes), nil)
	s.initialize()
	for i, tt := range tests {
		s.send(tt.line)
		msg := s.next()
		e, _ := msg["error"].(map[string]any)
		if e == nil || e["code"] != tt.code || msg["id"] != tt.id {
			t.Errorf("%s: got %v; want error %v with id %v", tt.name, msg, tt.code, tt.id)
		}
		if m, _ := e["message"].(string); m == "" || len(m) > 200 {
			t.Errorf("%s: error message %q should be short and present", tt.name, m)
		}
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 1000+i))
		if msg := s.next(); msg["id"] != float64(1000+i) || msg["result"] == nil {
			t.Fatalf("%s: the ping after it got %v; the session should go on", tt.name, msg)
		}
	}
	// Blank lines, and bad responses, are dropped without a reply.
	s.send("")
	s.send("  \t ")
	s.send(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
	s.send(`{"jsonrpc":"2.0","id":7,"result":{},"result":{}}`)
	s.send(`{"jsonrpc":"1.0","id":7,"result":{}}`)
	s.send(`{"jsonrpc":"2.0","id":"after-blank","method":"ping"}`)
	if msg := s.next(); msg["id"] != "after-blank" {
		t.Errorf("a blank line or a response was answered: %v", msg)
	}
	// Good lines with odd but valid framing still work.
	s.send(`  {"jsonrpc":"2.0","id":"crlf","method":"ping"}  ` + "\r")
	if msg := s.next(); msg["id"] != "crlf" || msg["result"] == nil {
		t.Errorf("a CRLF line with spaces got %v", msg)
	}
	// A repeated argument is the tool's to refuse, as a tool error.
	s.send(`{"jsonrpc":"2.0","id":98,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"a","query":"b"}}}`)
	if msg := s.next(); msg["id"] != float64(98) || msg["result"].(map[string]any)["isError"] != true {
		t.Errorf("a repeated argument got %v; want a tool error", msg)
	}
	// A valid call still works at the end.
	s.send(callLine(99, "sign-in"))
	msg := s.next()
	if msg["id"] != float64(99) || msg["result"] == nil {
		t.Fatalf("search after bad lines got %v", msg)
	}
	if log := s.log.String(); strings.Contains(log, "not json") || strings.Contains(log, "LINE-MARKER") {
		t.Errorf("the log quotes refused lines:\n%s", log)
	}
}

// TestTransportLongLine sends lines over the limit: each is answered with
// an error naming its id when the id comes early, and the session goes on.
func TestTransportLongLine(t *testing.T) {
	s := startServer(t, noteTree(t, sampleNotes), nil)
	s.initialize()
	pad := strings.Repeat("a", maxLineBytes)
	s.send(`{"jsonrpc":"2.0","id":"long","method":"ping","params":{"x":"` + pad + `"}}`)
	msg := s.next()
	if e, _ := msg["error"].(map[string]any); e == nil || e["code"] != float64(-32600) || msg["id"] != "long" {
		t.Fatalf("over-long line got %v", msg)
	}
	s.send(`{"jsonrpc":"2.0","method":"ping","params":{"x":"` + pad + `"},"id":"late"}`)
	if msg := s.next(); msg["id"] != nil {
		t.Fatalf("an id after the limit cannot be read, so the reply's id should be null: %v", msg)
	}
	s.send(pad + pad) // not JSON at all
	if msg := s.next(); msg["error"] == nil || msg["id"] != nil {
		t.Fatalf("over-long garbage got %v", msg)
	}
	// Exactly at the limit is accepted.
	line := `{"jsonrpc":"2.0","id":"edge","method":"ping","params":{"x":""}}`
	line = strings.Replace(line, `""`, `"`+strings.Repeat("b", maxLineBytes-len(line))+`"`, 1)
	if len(line) != maxLineBytes {
		t.Fatalf("test line is %d bytes", len(line))
	}
	s.send(line + "\r")
	if msg := s.next(); msg["id"] != "edge" || msg["result"] == nil {
		t.Fatalf("a line of exactly %d bytes got %v", maxLineBytes, msg)
	}
	s.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	if msg := s.next(); msg["id"] != "after" {
		t.Fatalf("ping after long lines got %v", msg)
	}
}

// patternReader yields head, then n bytes of filler, then tail, without
// allocating.
type patternReader struct {
	head, tail []byte
	n          int64
	off        int64
}

var filler = bytes.Repeat([]byte{'a'}, 64<<10)

func (r *patternReader) Read(p []byte) (int, error) {
	head, body := int64(len(r.head)), int64(len(r.head))+r.n
	var n int
	switch o := r.off; {
	case o < head:
		n = copy(p, r.head[o:])
	case o < body:
		n = copy(p, filler[:min(int64(len(filler)), body-o)])
	case o < body+int64(len(r.tail)):
		n = copy(p, r.tail[o-body:])
	default:
		return 0, io.EOF
	}
	r.off += int64(n)
	return n, nil
}

// TestTransportLongLineMemory streams a 256 MiB line: the transport must
// throw it away as it reads, allocating about one line limit, not the line.
func TestTransportLongLineMemory(t *testing.T) {
	size := int64(256 << 20)
	if testing.Short() {
		size = 64 << 20
	}
	in := &patternReader{
		head: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`),
		n:    size,
		tail: []byte("\"}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n"),
	}
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tr := newLineTransport(in, &out, log)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	conn, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	msg, err := conn.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if req, ok := msg.(*jsonrpc.Request); !ok || req.ID.Raw() != int64(2) {
		t.Fatalf("first message read is %#v; want the ping with id 2", msg)
	}
	if !strings.Contains(out.String(), `"id":1,"error":{"code":-32600`) {
		t.Errorf("the long line was not answered: %q", out.String())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("reading a %d MiB line allocated %d MiB; it should be discarded as it is read", size>>20, alloc>>20)
	}
}

// TestReadLine checks the line splitter at every length around its buffer
// and limit sizes.
func TestReadLine(t *testing.T) {
	const max = 40
	for _, bufSize := range []int{16, 17, 64} {
		for n := 0; n <= 3*max; n++ {
			for _, end := range []string{"\n", "\r\n", ""} {
				line := strings.Repeat("x", n)
				input := line + end + "next\n"
				if end == "" {
					input = line // the last line, unterminated
				}
				r := bufio.NewReaderSize(strings.NewReader(input), bufSize)
				got, size, tooLong, err := readLine(r, max)
				wantLong := n > max
				want := line
				if wantLong {
					want = line[:max]
				}
				wantErr := error(nil)
				if end == "" {
					wantErr = io.EOF
				}
				if string(got) != want || size != int64(n+len(end)) || tooLong != wantLong || err != wantErr {
					t.Fatalf("buf %d, %d bytes + %q: got %d bytes of %d, tooLong %v, %v", bufSize, n, end, len(got), size, tooLong, err)
				}
				if end == "" {
					continue
				}
				next, _, tooLong, err := readLine(r, max)
				if string(next) != "next" || tooLong || err != nil {
					t.Fatalf("buf %d, %d bytes + %q: the next line is %q, %v, %v", bufSize, n, end, next, tooLong, err)
				}
			}
		}
	}
	r := bufio.NewReaderSize(strings.NewReader("last"), 16)
	if got, _, _, err := readLine(r, max); string(got) != "last" || !errors.Is(err, io.EOF) {
		t.Errorf("unterminated last line: %q, %v", got, err)
	}
	// A carriage return is part of the line break only before "\n".
	r = bufio.NewReaderSize(strings.NewReader("\r\r\n\r"), 16)
	for _, want := range []string{"\r", "\r"} {
		if got, _, _, _ := readLine(r, max); string(got) != want {
			t.Errorf("got line %q; want %q", got, want)
		}
	}
}

// TestTransportOneLinePerMessage runs good calls and bad lines at once: the
// output is whole JSON-RPC lines, one per answer, never interleaved.
func TestTransportOneLinePerMessage(t *testing.T) {
	s := startServer(t, noteTree(t, sampleNotes), nil)
	s.initialize()
	const n = 200
	go func() {
		for i := range n {
			switch i % 3 {
			case 0:
				s.send(callLine(i, "sign-in"))
			case 1:
				s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"`, i)) // cut short
			default:
				s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i))
			}
		}
	}()
	wantParseErrors := 0
	for i := range n {
		if i%3 == 1 {
			wantParseErrors++
		}
	}
	seen := map[any]bool{}
	parseErrors := 0
	for range n {
		msg := s.next() // checks one whole JSON object per line
		if e, _ := msg["error"].(map[string]any); e != nil && e["code"] == float64(-32700) {
			parseErrors++
		}
		if seen[msg["id"]] {
			t.Fatalf("id %v answered twice", msg["id"])
		}
		seen[msg["id"]] = true
	}
	if parseErrors != wantParseErrors || len(seen) != n {
		t.Errorf("got %d parse errors and %d answers; want %d and %d", parseErrors, len(seen), wantParseErrors, n)
	}
}

// slowReads makes every note read take d and counts reads and reads that
// saw their context cancelled. It is a fault seam (see
// seam.Options.Faults): reads are made slow on purpose. Install it
// before starting the server.
type slowReads struct {
	d         time.Duration
	reads     atomic.Int64
	cancelled atomic.Int64
	ignoreCtx bool
}

func (s *slowReads) install(t testing.TB) {
	injectFaults(t, func(ctx context.Context, op seam.Op, name string) error {
		if op != seam.ReadFile {
			return nil
		}
		s.reads.Add(1)
		if s.ignoreCtx {
			time.Sleep(s.d)
			return nil
		}
		select {
		case <-time.After(s.d):
			return nil
		case <-ctx.Done():
			s.cancelled.Add(1)
			return ctx.Err()
		}
	})
}

func manyNotes(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("n%04d.md", i)] = "# N1\n\nnothing here\n"
	}
	return files
}

// TestTransportEOFCancelsCalls closes stdin while a slow search runs: the
// search's context is cancelled and serveStdio returns nil at once.
func TestTransportEOFCancelsCalls(t *testing.T) {
	slow := &slowReads{d: 10 * time.Second}
	slow.install(t)
	s := startServer(t, noteTree(t, manyNotes(3)), nil)
	s.initialize()
	s.send(callLine(1, "anything"))
	waitFor(t, func() bool { return slow.reads.Load() > 0 })
	start := time.Now()
	if err := s.closeInput(time.Second); err != nil {
		t.Fatalf("serveStdio returned %v after EOF; want nil", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v to stop", d)
	}
	// Every read in progress (searches read notes in parallel) saw the
	// cancellation.
	waitFor(t, func() bool { return slow.cancelled.Load() == slow.reads.Load() })
}

// TestTransportSignalCancelsCalls is the same with a signal, which serve
// turns into a cancelled context.
func TestTransportSignalCancelsCalls(t *testing.T) {
	slow := &slowReads{d: 10 * time.Second}
	slow.install(t)
	s := startServer(t, noteTree(t, manyNotes(3)), nil)
	s.initialize()
	s.send(callLine(1, "anything"))
	waitFor(t, func() bool { return slow.reads.Load() > 0 })
	start := time.Now()
	s.cancel()
	select {
	case err := <-s.done:
		s.done <- err
		if err != nil {
			t.Errorf("serveStdio returned %v after a signal; want nil", err)
		}
	case <-time.After(time.Second):
		t.Fatal("serveStdio did not return within 1s of a signal")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v to stop", d)
	}
	// Every read in progress (searches read notes in parallel) saw the
	// cancellation.
	waitFor(t, func() bool { return slow.cancelled.Load() == slow.reads.Load() })
}

// TestTransportStuckCallDoesNotHoldExit: a read that ignores cancellation
// (a hung file system) must not keep the server from stopping.
func TestTransportStuckCallDoesNotHoldExit(t *testing.T) {
	slow := &slowReads{d: 1200 * time.Millisecond, ignoreCtx: true}
	slow.install(t)
	s := startServer(t, noteTree(t, manyNotes(1)), nil)
	s.initialize()
	s.send(callLine(1, "anything"))
	waitFor(t, func() bool { return slow.reads.Load() > 0 })
	start := time.Now()
	if err := s.closeInput(time.Second); err != nil {
		t.Fatalf("serveStdio returned %v; want nil", err)
	}
	if d := time.Since(start); d < stopGrace || d > time.Second {
		t.Errorf("stopped after %v; want between %v and 1s", d, stopGrace)
	}
	if !strings.Contains(s.log.String(), "still running") {
		t.Errorf("the log does not say calls were abandoned:\n%s", s.log)
	}
	time.Sleep(slow.d) // let the stuck read finish before the next test
}

// failingWriter fails every write, like a stdout whose reader has gone.
type failingWriter struct{ writes atomic.Int64 }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.writes.Add(1)
	return 0, syscall.EPIPE
}

// TestTransportClientStopsReading: when stdout breaks, the session ends
// without an error, stops reading stdin, and logs it in plain words, not
// as the operating system's "broken pipe".
func TestTransportClientStopsReading(t *testing.T) {
	root := openTestRoot(t, noteTree(t, sampleNotes))
	inR, inW := io.Pipe()
	defer inW.Close()
	out := &failingWriter{}
	var logBuf lockedBuffer
	log := slog.New(slog.NewTextHandler(&logBuf, nil))
	done := make(chan error, 1)
	go func() {
		done <- serveStdio(context.Background(), newServer(root, search.New(root, search.Options{}), log), newLineTransport(inR, out, log), log)
	}()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`+"\n")
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serveStdio returned %v; want nil when the client goes away", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("serveStdio did not return after stdout broke")
	}
	if out.writes.Load() != 1 {
		t.Errorf("%d writes to a broken stdout; want 1", out.writes.Load())
	}
	if log := logBuf.String(); strings.Count(log, "\n") != 1 || !strings.Contains(log, "the client closed the server's output") || strings.Contains(log, "broken pipe") {
		t.Errorf("log:\n%s\nwant one line saying the client closed stdout, without the OS error", log)
	}
}

// waitFor polls cond for up to 5s.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTransportErrorCodes: every error reply carries a JSON-RPC code (never
// 0) and the request's id, and none repeats what the client sent in its
// data.
func TestTransportErrorCodes(t *testing.T) {
	injectFaults(t, func(ctx context.Context, op seam.Op, name string) error {
		if op == seam.ListDir && name == "." {
			return errors.New("injected: the folder cannot be read")
		}
		return nil
	})
	s := startServer(t, noteTree(t, sampleNotes), nil)
	wantError := func(what string, id any, code float64) map[string]any {
		t.Helper()
		msg := s.next()
		e, _ := msg["error"].(map[string]any)
		if msg["id"] != id || e == nil || e["code"] != code {
			t.Errorf("%s: got %v; want error %v for id %v", what, msg, code, id)
		}
		return e
	}
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	wantError("tools/list before initialize", float64(1), -32600)
	s.send(callLine(2, "sign-in"))
	wantError("tools/call before initialize", float64(2), -32600)
	s.initialize()
	s.send(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	wantError("a second initialize", float64(3), -32600)
	s.send(`{"jsonrpc":"2.0","id":4,"method":"resources/list"}`)
	wantError("resources/list on an unreadable folder", float64(4), -32603)
	s.send(`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"file:///etc/CLIENT-URI"}}`)
	if e := wantError("a URI no template matches", float64(5), -32602); e["data"] != nil || strings.Contains(fmt.Sprint(e), "CLIENT-URI") {
		t.Errorf("the refusal repeats the URI: %v", e)
	}
	s.send(`{"jsonrpc":"2.0","id":"m","method":"` + strings.Repeat("m", 5000) + `"}`)
	if e := wantError("an unknown method with a long name", "m", -32601); len(fmt.Sprint(e["message"])) > maxErrorMessage+len("…") {
		t.Errorf("the reply quotes %d bytes of the request", len(fmt.Sprint(e["message"])))
	}
	s.send(`{"jsonrpc":"2.0","id":"p","method":"resources/read","params":{"uri":"file:///etc/CLIENT-URI","_meta":5}}`)
	if e := wantError("params the SDK cannot decode", "p", -32602); strings.Contains(fmt.Sprint(e), "CLIENT-URI") {
		t.Errorf("the refusal repeats the URI: %v", e)
	}
	s.send(`{"jsonrpc":"2.0","method":"ping","params":{"a":1,"a":2},"id":6}`)
	wantError("a repeated key before the id", float64(6), -32600)
	s.send(`{"jsonrpc":"2.0","method":"ping","params":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `,"id":7}`)
	wantError("nesting deeper than Go parses", float64(7), -32600)
	for i, line := range []string{"\f", "\v", "\u00a0", "\u3000", "\r\r", " \u00a0\t"} {
		s.send(line)
		wantError(fmt.Sprintf("line %q", line), nil, -32700)
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i))
		if msg := s.next(); msg["id"] != float64(100+i) {
			t.Fatalf("the ping after %q got %v", line, msg)
		}
	}
}

// TestTransportCancelledCallNotAnswered: a call the client cancels is not
// answered (MCP: a receiver should not reply to a cancelled request), and
// the session goes on.
func TestTransportCancelledCallNotAnswered(t *testing.T) {
	slow := &slowReads{d: 10 * time.Second}
	slow.install(t)
	s := startServer(t, noteTree(t, manyNotes(3)), nil)
	s.initialize()
	s.send(callLine("slow", "anything"))
	waitFor(t, func() bool { return slow.reads.Load() > 0 })
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow","reason":"test"}}`)
	waitFor(t, func() bool { return slow.cancelled.Load() > 0 })
	time.Sleep(100 * time.Millisecond) // let the cancelled call end
	s.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	if msg := s.next(); msg["id"] != "after" || msg["result"] == nil {
		t.Fatalf("got %v; want only the ping's answer, and no answer to the cancelled call", msg)
	}
	// A cancellation for a request already answered, or never sent,
	// changes nothing.
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"after"}}`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}`)
	s.send(`{"jsonrpc":"2.0","id":42,"method":"ping"}`)
	if msg := s.next(); msg["id"] != float64(42) || msg["result"] == nil {
		t.Fatalf("got %v; want the ping answered", msg)
	}
	select {
	case line := <-s.lines:
		t.Errorf("an answer came after the last ping: %s", line)
	case <-time.After(300 * time.Millisecond):
	}
}

// BenchmarkToolCallSmallNote measures what a client sending calls back to
// back sees from one server on a folder holding one note of 2.5 KB, the
// "one small note" case of scripts/bench.sh: the real server (newServer)
// on a lineTransport over OS pipes, as "serve" runs it on stdio, each
// iteration one tools/call search_notes written and its reply read.
func BenchmarkToolCallSmallNote(b *testing.B) {
	dir := b.TempDir()
	if _, err := corpus.Generate(dir, corpus.Options{Files: 1, Size: 2500, Seed: 1, K: 1}); err != nil {
		b.Fatal(err)
	}
	// A note is summarised only once its times are two seconds old (see
	// boundary.Stamp), as bench.sh's notes are: then an absent phrase is
	// answered without reading the note.
	time.Sleep(2100 * time.Millisecond)
	for _, bc := range []struct {
		name, query string
		want        string // in every reply
	}{
		{"present", corpus.Planted, `"line":`},
		{"absent", corpus.Absent, `"matches":[]`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := startPipeServer(b, dir)
			call := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":%q}}}`+"\n", bc.query)
			s.roundTrip(call)
			time.Sleep(20 * time.Millisecond) // the summary is made between calls
			if reply := s.roundTrip(call); !bytes.Contains(reply, []byte(bc.want)) || bytes.Contains(reply, []byte(`"isError":true`)) {
				b.Fatalf("reply %s does not hold %s", reply, bc.want)
			}
			for b.Loop() {
				s.roundTrip(call)
			}
		})
	}
}

// pipeServer is the real server answering over two OS pipes.
type pipeServer struct {
	tb  testing.TB
	in  *os.File // the server's stdin, written here
	out *bufio.Reader
}

func startPipeServer(tb testing.TB, dir string) *pipeServer {
	tb.Helper()
	root, err := boundary.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	// Fd puts the server's end in blocking mode, as the standard input
	// os/exec gives a child is: reads then block in read(2) rather than
	// wait in Go's network poller.
	inR.Fd()
	outR, outW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelError}))
	searcher := search.New(root, search.Options{Summaries: true})
	done := make(chan error, 1)
	go func() {
		done <- serveStdio(context.Background(), newServer(root, searcher, log), newLineTransport(inR, outW, log), log)
		outW.Close()
	}()
	tb.Cleanup(func() {
		inW.Close()
		io.Copy(io.Discard, outR)
		if err := <-done; err != nil {
			tb.Errorf("serveStdio: %v", err)
		}
		searcher.Close()
		root.Close()
		inR.Close()
		outR.Close()
	})
	s := &pipeServer{tb: tb, in: inW, out: bufio.NewReaderSize(outR, 1<<20)}
	s.roundTrip([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}` + "\n"))
	if _, err := inW.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		tb.Fatal(err)
	}
	return s
}

// roundTrip writes one request line and returns the reply line.
func (s *pipeServer) roundTrip(line []byte) []byte {
	if _, err := s.in.Write(line); err != nil {
		s.tb.Fatal(err)
	}
	reply, err := s.out.ReadSlice('\n')
	if err != nil {
		s.tb.Fatal(err)
	}
	return reply
}

// TestTransportReusedIDAnswered: a request that reuses the id of one still
// in flight gets a -32600 error under that id at once, the first request
// still gets its own answer, and the id may be used again once answered.
// The SDK alone answers the second with id null and may never answer the
// first.
func TestTransportReusedIDAnswered(t *testing.T) {
	slow := &slowReads{d: 300 * time.Millisecond}
	slow.install(t)
	s := startServer(t, noteTree(t, manyNotes(1)), nil)
	s.initialize()
	for _, id := range []string{`"dup"`, `7`} {
		var first any
		if err := json.Unmarshal([]byte(id), &first); err != nil {
			t.Fatal(err)
		}
		reads := slow.reads.Load()
		s.send(callLine(first, "nothing"))
		waitFor(t, func() bool { return slow.reads.Load() > reads })
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		refusal := s.next()
		errObj, _ := refusal["error"].(map[string]any)
		if refusal["id"] != first || errObj == nil || errObj["code"] != float64(jsonrpc.CodeInvalidRequest) ||
			!strings.Contains(errObj["message"].(string), "still in flight") {
			t.Fatalf("the request reusing id %s got %v; want -32600 under that id", id, refusal)
		}
		if answer := s.next(); answer["id"] != first || answer["result"] == nil {
			t.Fatalf("the first request with id %s got %v; want its result", id, answer)
		}
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if again := s.next(); again["id"] != first || again["result"] == nil {
			t.Fatalf("id %s used again after its answer got %v; want the ping answered", id, again)
		}
	}
	if !strings.Contains(s.log.String(), "still in flight") {
		t.Errorf("the refusal was not logged; log:\n%s", s.log)
	}
}

// writeHook calls fn on each write, as a client that reads an answer and
// at once sends its next request would act while the answer is written.
type writeHook struct{ fn func() }

func (w writeHook) Write(p []byte) (int, error) {
	w.fn()
	return len(p), nil
}

// An id reused the moment its answer is read is a new request in flight:
// the end of the first answer's write does not forget it, so a third use
// of the id while the second is in flight is still refused.
func TestTransportIDReusedAsAnswerIsWritten(t *testing.T) {
	var c *lineConn
	id, err := jsonrpc.MakeID(float64(5))
	if err != nil {
		t.Fatal(err)
	}
	reused := false
	hook := writeHook{func() {
		if !reused {
			reused = c.track(&jsonrpc.Request{ID: id, Method: "ping"})
		}
	}}
	tr := newLineTransport(strings.NewReader(""), hook, slog.New(slog.NewTextHandler(io.Discard, nil)))
	c = &lineConn{t: tr, pending: map[jsonrpc.ID]callState{}, answered: make(chan struct{}, 1), closed: make(chan struct{})}
	if !c.track(&jsonrpc.Request{ID: id, Method: "ping"}) {
		t.Fatal("the first request was refused")
	}
	if err := c.Write(context.Background(), &jsonrpc.Response{ID: id, Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if !reused {
		t.Fatal("the id was refused while its answer was being written")
	}
	if got := c.pending[id]; got != pendingCall {
		t.Fatalf("after the first answer, the second request's state is %v; want it in flight", got)
	}
	if c.track(&jsonrpc.Request{ID: id, Method: "ping"}) {
		t.Error("a third request with the id of one in flight was let through")
	}
}

// Every request gets exactly one answer: a result, or an error that says
// why. These tests send the pairs that once lost answers: two calls right
// after initialize, before its answer, and two calls with one id; then
// the client closes its input, at once or after reading the answers.

// newLineScanner reads the server's output line by line.
func newLineScanner(s *testServer) *bufio.Scanner {
	sc := bufio.NewScanner(s.out)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	return sc
}

// linesUntilEOF returns every line sc reads from the server until it
// closes its output, decoded, or fails the test after within.
func linesUntilEOF(t *testing.T, s *testServer, sc *bufio.Scanner, within time.Duration) []map[string]any {
	t.Helper()
	type result struct {
		msgs []map[string]any
		err  error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				r.err = fmt.Errorf("a line that is not a JSON object: %.200q", sc.Bytes())
				break
			}
			r.msgs = append(r.msgs, m)
		}
		done <- r
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Error(r.err)
		}
		return r.msgs
	case <-time.After(within):
		t.Errorf("the server did not close its output within %v of its input closing; log:\n%s", within, s.log)
		return nil
	}
}

// answersByID groups answers by their id, as JSON ("null" for none).
func answersByID(msgs []map[string]any) map[string][]map[string]any {
	by := map[string][]map[string]any{}
	for _, m := range msgs {
		id, _ := json.Marshal(m["id"])
		by[string(id)] = append(by[string(id)], m)
	}
	return by
}

// errorCode returns an answer's error code and message, or ok false for a
// result.
func errorCode(m map[string]any) (code float64, msg string, isErr bool) {
	e, isErr := m["error"].(map[string]any)
	if !isErr {
		return 0, "", false
	}
	code, _ = e["code"].(float64)
	msg, _ = e["message"].(string)
	return code, msg, true
}

// checkPairs checks the answers of one session of sendPairs.
func checkPairs(t *testing.T, label string, msgs []map[string]any) {
	t.Helper()
	by := answersByID(msgs)
	for _, id := range []string{`"init"`, "55", "56"} {
		if n := len(by[id]); n != 1 {
			t.Errorf("%s: id %s answered %d times; want once. Answers: %v", label, id, n, msgs)
			continue
		}
		if code, msg, isErr := errorCode(by[id][0]); isErr && (code == 0 || msg == "") || !isErr && by[id][0]["result"] == nil {
			t.Errorf("%s: id %s answered with %v; want a result or an error that says why", label, id, by[id][0])
		}
	}
	reused := by["57"]
	if len(reused) != 2 {
		t.Errorf("%s: the two requests with id 57 got %d answers; want 2. Answers: %v", label, len(reused), msgs)
	}
	refusals := 0
	for _, m := range reused {
		code, msg, isErr := errorCode(m)
		switch {
		case !isErr && m["result"] != nil:
		case code == jsonrpc.CodeInvalidRequest && strings.Contains(msg, "still in flight"):
			refusals++
		case isErr && code != 0 && msg != "":
		default:
			t.Errorf("%s: id 57 answered with %v", label, m)
		}
	}
	if refusals > 1 {
		t.Errorf("%s: both requests with id 57 were refused as reusing an id in flight: %v", label, reused)
	}
	if len(msgs) != 5 {
		t.Errorf("%s: %d answers in all; want 5: %v", label, len(msgs), msgs)
	}
}

// sendPairs runs one session: initialize and two calls (ids 55 and 56)
// without waiting, then, once initialize is answered, two calls with id 57;
// then it closes the input, at once when closeAtOnce, else after all five
// answers. It returns every answer.
func sendPairs(t *testing.T, s *testServer, closeAtOnce bool) []map[string]any {
	t.Helper()
	s.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}` + "\n" +
		callLine(55, "nothing") + "\n" + callLine(56, "N1"))
	var got []map[string]any
	sc := newLineScanner(s)
	read := func() bool {
		if !sc.Scan() {
			t.Errorf("the server closed its output early; log:\n%s", s.log)
			return false
		}
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Errorf("a line that is not a JSON object: %.200q", sc.Bytes())
			return false
		}
		got = append(got, m)
		return true
	}
	for len(answersByID(got)[`"init"`]) == 0 {
		if !read() {
			return got
		}
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + callLine(57, "nothing") + "\n" + callLine(57, "N1"))
	if !closeAtOnce {
		for len(got) < 5 {
			if !read() {
				return got
			}
		}
	}
	s.in.Close()
	return append(got, linesUntilEOF(t, s, sc, 5*time.Second)...)
}

// TestEveryRequestAnsweredOnce runs sendPairs on 100 fresh servers, 20 at
// a time, half of them closing the input at once. Note reads take from 0 to
// 600 ms, so that some calls are still running when the input ends, for
// longer than the server waits for them (drainGrace).
func TestEveryRequestAnsweredOnce(t *testing.T) {
	injectFaults(t, func(ctx context.Context, op seam.Op, name string) error {
		if op != seam.ReadFile {
			return nil
		}
		h := fnv.New32a()
		fmt.Fprintf(h, "%s %d", name, time.Now().UnixNano())
		select {
		case <-time.After(time.Duration(h.Sum32()%600) * time.Millisecond):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	dir := noteTree(t, manyNotes(3))
	const servers, atOnce = 100, 20
	sem := make(chan struct{}, atOnce)
	var wg sync.WaitGroup
	for i := range servers {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			s := startServer(t, dir, nil)
			closeAtOnce := i%2 == 0
			checkPairs(t, fmt.Sprintf("server %d (input closed at once: %v)", i, closeAtOnce), sendPairs(t, s, closeAtOnce))
		}()
	}
	wg.Wait()
}

// TestCallsRunningAtEndAreAnswered: calls still running when the input
// ends, or when a signal comes, are answered with an error that says so,
// and not answered again when they finish. Without this the SDK answers
// nothing once its input has ended.
func TestCallsRunningAtEndAreAnswered(t *testing.T) {
	for _, bySignal := range []bool{false, true} {
		t.Run(fmt.Sprintf("signal=%v", bySignal), func(t *testing.T) {
			slow := &slowReads{d: 10 * time.Second}
			slow.install(t)
			s := startServer(t, noteTree(t, manyNotes(3)), nil)
			s.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}` + "\n" +
				callLine(55, "nothing") + "\n" + callLine(56, "N1"))
			collected := make(chan []map[string]any, 1)
			go func() { collected <- linesUntilEOF(t, s, newLineScanner(s), 20*time.Second) }()
			waitFor(t, func() bool { return slow.reads.Load() > 0 })
			if bySignal {
				s.cancel()
			} else {
				s.in.Close()
			}
			msgs := <-collected
			by := answersByID(msgs)
			if len(msgs) != 3 || len(by[`"init"`]) != 1 || by[`"init"`][0]["result"] == nil {
				t.Fatalf("answers %v; want initialize's result and one answer each to 55 and 56", msgs)
			}
			for _, id := range []string{"55", "56"} {
				if len(by[id]) != 1 {
					t.Errorf("id %s answered %d times; want once: %v", id, len(by[id]), msgs)
					continue
				}
				if code, msg, _ := errorCode(by[id][0]); code != jsonrpc.CodeInternalError || !strings.Contains(msg, "the server is stopping") {
					t.Errorf("id %s answered with %v; want -32603 saying the server is stopping", id, by[id][0])
				}
			}
			if !strings.Contains(s.log.String(), "requests still running") {
				t.Errorf("the log does not say requests were still running:\n%s", s.log)
			}
		})
	}
}
