package main

// Helpers shared by the tests of package main: temporary note trees, the
// fault seam, and startServer, which starts the server in process.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/boundary"
	"practice-notes/boundary/seam"
	"practice-notes/search"
)

// lockedBuffer is a log destination safe for concurrent writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// noteTree writes files (slash-separated name → content) under a new
// directory and returns it.
func noteTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		writeNote(t, filepath.Join(dir, filepath.FromSlash(name)), text)
	}
	return dir
}

func writeNote(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// injectedFaults is the fault hook that openTestRoot installs on each Root it opens
// (see seam.Options.Faults), so that a test can inject faults into
// the server that startServer starts. Set it with injectFaults before
// starting the server. It is package state, so tests that set it must not
// run in parallel; none of this package's tests do.
var injectedFaults seam.Hook

// injectFaults makes every Root opened by openTestRoot for the rest of the test
// call h.
func injectFaults(t testing.TB, h seam.Hook) {
	t.Helper()
	injectedFaults = h
	t.Cleanup(func() { injectedFaults = nil })
}

func openTestRoot(t testing.TB, dir string) *boundary.Root {
	t.Helper()
	root, err := boundary.Open(dir, seam.Options{Faults: injectedFaults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root
}

// testServer is the real server (newServer) on a lineTransport over pipes,
// run by serveStdio as "serve" runs it. It is driven either with raw lines
// (send, next) or through the SDK's client (client), not both.
type testServer struct {
	t      testing.TB
	in     *io.PipeWriter // the server's stdin
	out    *io.PipeReader // the server's stdout
	done   chan error     // serveStdio's result
	cancel context.CancelFunc
	log    *lockedBuffer // the log, when startServer was given none

	linesOnce sync.Once
	lines     chan []byte // every line the server wrote to stdout, once next is called
}

// startServer starts a server on dir. Its log goes to log or, when log is
// nil, at debug level to s.log. This is the one way the tests of package
// main start a server in process, apart from httpNotes for HTTP; the
// scripts in tests/script run the binary.
func startServer(t testing.TB, dir string, log *slog.Logger) *testServer {
	t.Helper()
	root := openTestRoot(t, dir)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	logBuf := &lockedBuffer{}
	if log == nil {
		log = slog.New(slog.NewTextHandler(logBuf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &testServer{t: t, in: inW, out: outR, done: make(chan error, 1), cancel: cancel, log: logBuf}
	searcher := search.New(root, search.Options{Summaries: true})
	t.Cleanup(searcher.Close) // after the server has stopped
	go func() {
		s.done <- serveStdio(ctx, newServer(root, searcher, log), newLineTransport(inR, outW, log), log)
		outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close() // nothing more is read
		select {
		case err := <-s.done:
			s.done <- err
		case <-time.After(5 * time.Second):
			t.Error("server still running 5s after cleanup")
		}
	})
	return s
}

// client connects the SDK's client to the server, negotiating version (""
// for the SDK's default).
func (s *testServer) client(version string) *mcp.ClientSession {
	s.t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: s.out, Writer: s.in}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		s.t.Fatalf("connect with protocol %q: %v", version, err)
	}
	s.t.Cleanup(func() { cs.Close() })
	return cs
}

// send writes one line (a newline is added).
func (s *testServer) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("writing to the server: %v", err)
	}
}

// next returns the next line from the server, decoded. Every line must be
// one JSON object ending in a newline.
func (s *testServer) next() map[string]any {
	s.t.Helper()
	msg := s.nextWithin(20 * time.Second)
	if msg == nil {
		s.t.Fatalf("no line from the server within 20s; log:\n%s", s.log)
	}
	return msg
}

// nextWithin returns the next line from the server, decoded, or nil when
// none comes within d.
func (s *testServer) nextWithin(d time.Duration) map[string]any {
	s.t.Helper()
	s.linesOnce.Do(func() {
		s.lines = make(chan []byte, 4096)
		go func() {
			r := bufio.NewReaderSize(s.out, 1<<20)
			for {
				line, err := r.ReadBytes('\n')
				if len(line) > 0 {
					s.lines <- line
				}
				if err != nil {
					close(s.lines)
					return
				}
			}
		}()
	})
	select {
	case line, ok := <-s.lines:
		if !ok {
			s.t.Fatalf("the server closed stdout; log:\n%s", s.log)
		}
		return decodeLine(s.t, line)
	case <-time.After(d):
		return nil
	}
}

// decodeLine checks that line is one JSON-RPC 2.0 message and a newline.
func decodeLine(t testing.TB, line []byte) map[string]any {
	t.Helper()
	if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
		t.Fatalf("stdout line is not one newline-terminated line: %.300q", line)
	}
	var msg map[string]any
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&msg); err != nil {
		t.Fatalf("stdout carried a line that is not a JSON object: %.300q", line)
	}
	if dec.More() {
		t.Fatalf("stdout line holds more than one JSON value: %.300q", line)
	}
	if msg["jsonrpc"] != "2.0" {
		t.Fatalf("stdout line is not JSON-RPC 2.0: %.300q", line)
	}
	return msg
}

// initialize performs the 2025-06-18 handshake.
func (s *testServer) initialize() {
	s.t.Helper()
	s.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if msg := s.next(); msg["id"] != "init" || msg["result"] == nil {
		s.t.Fatalf("initialize answered with %v", msg)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// callLine is a tools/call line for search_notes with query.
func callLine(id any, query string) string {
	idJSON, _ := json.Marshal(id)
	args, _ := json.Marshal(map[string]string{"query": query})
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"search_notes","arguments":%s}}`, idJSON, args)
}

// closeInput closes the server's stdin and waits for serveStdio to return.
func (s *testServer) closeInput(within time.Duration) error {
	s.t.Helper()
	s.in.Close()
	select {
	case err := <-s.done:
		s.done <- err
		return err
	case <-time.After(within):
		s.t.Fatalf("serveStdio did not return within %v of stdin closing", within)
	}
	return nil
}

// callSearch calls search_notes and returns the result's structured content
// decoded, or the error text when the result is an error.
func callSearch(ctx context.Context, cs *mcp.ClientSession, query string) (res map[string]any, errText string, err error) {
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": query}})
	if err != nil {
		return nil, "", err
	}
	text := ""
	if len(r.Content) == 1 {
		if tc, ok := r.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	if r.IsError {
		return nil, text, nil
	}
	if err := json.Unmarshal([]byte(text), &res); err != nil {
		return nil, "", fmt.Errorf("result text is not JSON: %.200q", text)
	}
	return res, "", nil
}

// waitGoroutines waits up to 2s for the number of goroutines to come back
// to at most want, and reports the stacks if it does not.
func waitGoroutines(t testing.TB, want int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= want {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines left, want at most %d:\n%s", n, want, buf)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// resultMatches returns the passages of a decoded result.
func resultMatches(res map[string]any) []map[string]any {
	var out []map[string]any
	ms, _ := res["matches"].([]any)
	for _, m := range ms {
		if mm, ok := m.(map[string]any); ok {
			out = append(out, mm)
		}
	}
	return out
}

// containsAny reports the first of needles found in s.
func containsAny(s string, needles ...string) (string, bool) {
	for _, n := range needles {
		if n != "" && strings.Contains(s, n) {
			return n, true
		}
	}
	return "", false
}

// nameAllowed reports whether a fixture may create a file called name on
// this system: Windows forbids control characters and `"*:<>?|` in names.
func nameAllowed(name string) bool {
	return runtime.GOOS != "windows" ||
		!strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || strings.ContainsRune(`"*:<>?|`, r) })
}

// makeEntry makes an empty file at path, a directory entry as cheap as
// every system makes one.
func makeEntry(path string) error { return os.WriteFile(path, nil, 0o644) }
