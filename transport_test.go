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
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"practice-notes/boundary"
)

var hNotes = map[string]string{
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
		{"cut short", `{"jsonrpc":"2.0","id":5,"method":"LINE-MARKER"`, -32700, nil},
		{"two values", `{"jsonrpc":"2.0","id":5,"method":"ping"}{"a":1}`, -32700, nil},
		{"trailing garbage", `{"jsonrpc":"2.0","id":5,"method":"ping"} x`, -32700, nil},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"x\":\"\xff\"}}", -32700, nil},
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
	s := hStart(t, hTree(t, hNotes))
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
	s.send(hCallLine(99, "sign-in"))
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
	s := hStart(t, hTree(t, hNotes))
	s.initialize()
	pad := strings.Repeat("a", MaxLineBytes)
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
	line = strings.Replace(line, `""`, `"`+strings.Repeat("b", MaxLineBytes-len(line))+`"`, 1)
	if len(line) != MaxLineBytes {
		t.Fatalf("test line is %d bytes", len(line))
	}
	s.send(line + "\r")
	if msg := s.next(); msg["id"] != "edge" || msg["result"] == nil {
		t.Fatalf("a line of exactly %d bytes got %v", MaxLineBytes, msg)
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
				got, tooLong, err := readLine(r, max)
				wantLong := n > max
				want := line
				if wantLong {
					want = line[:max]
				}
				wantErr := error(nil)
				if end == "" {
					wantErr = io.EOF
				}
				if string(got) != want || tooLong != wantLong || err != wantErr {
					t.Fatalf("buf %d, %d bytes + %q: got %d bytes, tooLong %v, %v", bufSize, n, end, len(got), tooLong, err)
				}
				if end == "" {
					continue
				}
				next, tooLong, err := readLine(r, max)
				if string(next) != "next" || tooLong || err != nil {
					t.Fatalf("buf %d, %d bytes + %q: the next line is %q, %v, %v", bufSize, n, end, next, tooLong, err)
				}
			}
		}
	}
	r := bufio.NewReaderSize(strings.NewReader("last"), 16)
	if got, _, err := readLine(r, max); string(got) != "last" || !errors.Is(err, io.EOF) {
		t.Errorf("unterminated last line: %q, %v", got, err)
	}
}

// TestTransportOneLinePerMessage runs good calls and bad lines at once: the
// output is whole JSON-RPC lines, one per answer, never interleaved.
func TestTransportOneLinePerMessage(t *testing.T) {
	s := hStart(t, hTree(t, hNotes))
	s.initialize()
	const n = 200
	go func() {
		for i := range n {
			switch i % 3 {
			case 0:
				s.send(hCallLine(i, "sign-in"))
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
		if msg["id"] == nil {
			parseErrors++
			continue
		}
		if seen[msg["id"]] {
			t.Fatalf("id %v answered twice", msg["id"])
		}
		seen[msg["id"]] = true
	}
	if parseErrors != wantParseErrors || len(seen) != n-wantParseErrors {
		t.Errorf("got %d parse errors and %d answers; want %d and %d", parseErrors, len(seen), wantParseErrors, n-wantParseErrors)
	}
}

// slowReads makes every note read take d and counts reads and reads that
// saw their context cancelled. It is a fault seam (see
// boundary.Root.InjectFaults): reads are made slow on purpose. Install it
// before starting the server.
type slowReads struct {
	d         time.Duration
	reads     atomic.Int64
	cancelled atomic.Int64
	ignoreCtx bool
}

func (s *slowReads) install(t testing.TB) {
	hInjectFaults(t, func(ctx context.Context, op boundary.Op, name string) error {
		if op != boundary.ReadFile {
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
	s := hStart(t, hTree(t, manyNotes(3)))
	s.initialize()
	s.send(hCallLine(1, "anything"))
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
	s := hStart(t, hTree(t, manyNotes(3)))
	s.initialize()
	s.send(hCallLine(1, "anything"))
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
	s := hStart(t, hTree(t, manyNotes(1)))
	s.initialize()
	s.send(hCallLine(1, "anything"))
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
// without an error and stops reading stdin.
func TestTransportClientStopsReading(t *testing.T) {
	root := hOpenRoot(t, hTree(t, hNotes))
	inR, inW := io.Pipe()
	defer inW.Close()
	out := &failingWriter{}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	done := make(chan error, 1)
	go func() {
		done <- serveStdio(context.Background(), newServer(root, log), newLineTransport(inR, out, log), log)
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
}

// TestServeProcessStops runs the real binary: stdin EOF, SIGTERM and SIGINT
// each end it with status 0 within a second, and a client that closes its
// end of stdout does not get the server killed by SIGPIPE.
func TestServeProcessStops(t *testing.T) {
	bin := filepath.Join(t.TempDir(), exeName("practice-notes"))
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := hTree(t, hNotes)
	initLine := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}` + "\n"
	start := func(t *testing.T) (*exec.Cmd, io.WriteCloser, *bufio.Reader, io.ReadCloser) {
		cmd := exec.Command(bin, "serve", "-root", dir)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		io.WriteString(stdin, initLine)
		r := bufio.NewReader(stdout)
		if line, err := r.ReadBytes('\n'); err != nil || !bytes.Contains(line, []byte(`"id":1,"result"`)) {
			t.Fatalf("initialize: %q, %v", line, err)
		}
		return cmd, stdin, r, stdout
	}
	waitExit := func(t *testing.T, cmd *exec.Cmd, from time.Time) {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve exited with %v; want status 0", err)
			}
			if d := time.Since(from); d > time.Second {
				t.Errorf("serve took %v to exit; want under a second", d)
			}
		case <-time.After(3 * time.Second):
			t.Fatal("serve did not exit")
		}
	}
	t.Run("EOF", func(t *testing.T) {
		cmd, stdin, _, _ := start(t)
		now := time.Now()
		stdin.Close()
		waitExit(t, cmd, now)
	})
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, _, _, _ := start(t)
			now := time.Now()
			cmd.Process.Signal(sig)
			waitExit(t, cmd, now)
		})
	}
	t.Run("stdout closed", func(t *testing.T) {
		cmd, stdin, _, stdout := start(t)
		stdout.Close()
		for i := range 20 {
			fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", 10+i)
		}
		// Let the server answer (into the closed pipe) before stdin ends,
		// which would cancel the pings.
		time.Sleep(300 * time.Millisecond)
		now := time.Now()
		stdin.Close()
		waitExit(t, cmd, now)
	})
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

// TestCheckMessageAgreesWithEncodingJSON pins the transport's JSON checks
// to encoding/json on a few tricky inputs (the fuzz target FuzzLine covers
// the rest).
func TestCheckMessageAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[1,2,{"b":null}]}}`,
		`{"jsonrpc":"2.0","id":"\u00e9","method":"ping"}`,
		`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping",}`,
		`{"jsonrpc":"2.0","id":01,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"`,
		`{"jsonrpc":"2.0","id":1,"method":"p\ing"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	} {
		_, rej := checkMessage([]byte(in))
		parseErr := rej != nil && rej.code == codeParseError
		if parseErr == json.Valid([]byte(in)) {
			t.Errorf("%s: parse error %v, but json.Valid says %v", in, parseErr, json.Valid([]byte(in)))
		}
	}
}
