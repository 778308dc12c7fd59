package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds practice-notes once per test run.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "practice-notes-e2e")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, exeName("practice-notes"))
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// wireServer is "practice-notes serve" driven over real pipes.
type wireServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	lines  chan []byte   // every stdout line, in order
	eof    chan struct{} // closed once stdout has been read to its end
	stderr *lockedBuffer
}

func startServe(t *testing.T, args ...string) *wireServer {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"serve"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	ws := &wireServer{t: t, cmd: cmd, stdin: stdin, stdout: stdout, lines: make(chan []byte, 100), eof: make(chan struct{}), stderr: new(lockedBuffer)}
	cmd.Stderr = ws.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			ws.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(ws.lines)
		close(ws.eof)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return ws
}

func (ws *wireServer) send(msg string) {
	ws.t.Helper()
	if _, err := io.WriteString(ws.stdin, msg+"\n"); err != nil {
		ws.t.Fatal(err)
	}
}

// reply reads the next stdout line, which must be a JSON-RPC 2.0 response
// to id.
func (ws *wireServer) reply(id int) map[string]any {
	ws.t.Helper()
	select {
	case line, ok := <-ws.lines:
		if !ok {
			ws.t.Fatalf("stdout closed before the reply to %d; stderr:\n%s", id, ws.stderr)
		}
		var msg map[string]any
		if err := json.Unmarshal(line, &msg); err != nil {
			ws.t.Fatalf("stdout carried a line that is not JSON: %q", line)
		}
		if msg["jsonrpc"] != "2.0" || msg["id"] != float64(id) {
			ws.t.Fatalf("stdout carried %s; want the JSON-RPC reply to id %d", line, id)
		}
		return msg
	case <-time.After(10 * time.Second):
		ws.t.Fatalf("no reply to %d within 10s", id)
	}
	return nil
}

// initialize performs the 2025-06-18 handshake with id 1.
func (ws *wireServer) initialize() {
	ws.t.Helper()
	ws.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wire","version":"0"}}}`)
	ws.reply(1)
	ws.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// close closes stdin and checks the server exits 0 with nothing more on
// stdout.
func (ws *wireServer) close() {
	ws.t.Helper()
	ws.stdin.Close()
	ws.waitExit(5 * time.Second)
	for line := range ws.lines {
		ws.t.Errorf("unexpected stdout line after the last reply: %q", line)
	}
}

// waitExit checks that the server exits with status 0 within d.
func (ws *wireServer) waitExit(d time.Duration) {
	ws.t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		<-ws.eof // Wait closes stdout, so read it to its end first
		done <- ws.cmd.Wait()
	}()
	select {
	case err := <-done:
		if err != nil {
			ws.t.Errorf("serve exited with %v; want status 0; stderr:\n%s", err, ws.stderr)
		}
	case <-time.After(d):
		ws.t.Fatalf("serve did not exit within %v; stderr:\n%s", d, ws.stderr)
	}
	ws.t.Logf("serve exited after %v", time.Since(start))
}

func toolText(t *testing.T, msg map[string]any) (text string, isError bool) {
	t.Helper()
	res, _ := msg["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("want one content block, got %v", msg)
	}
	block, _ := content[0].(map[string]any)
	text, _ = block["text"].(string)
	isError, _ = res["isError"].(bool)
	return text, isError
}

// A client of the 2025-06-18 revision: initialize, then calls.
func TestServeStdioInitialize(t *testing.T) {
	ws := startServe(t, "-root", "practice-data")
	ws.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wire","version":"0"}}}`)
	init := ws.reply(1)
	if v := init["result"].(map[string]any)["protocolVersion"]; v != "2025-06-18" {
		t.Errorf("negotiated %v, want 2025-06-18", v)
	}
	ws.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	ws.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	tools := ws.reply(2)["result"].(map[string]any)["tools"].([]any)
	if len(tools) != 1 || tools[0].(map[string]any)["name"] != "search_notes" {
		t.Errorf("tools/list: %v", tools)
	}
	ws.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"sign-in"}}}`)
	if text, isErr := toolText(t, ws.reply(3)); isErr || !strings.Contains(text, `"note_id":"N2"`) {
		t.Errorf("sign-in: isError=%v %s", isErr, text)
	}
	ws.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"a","query":"b"}}}`)
	if text, isErr := toolText(t, ws.reply(4)); !isErr || !strings.Contains(text, "more than once") {
		t.Errorf("duplicate key: isError=%v %s", isErr, text)
	}
	ws.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"delete_note","arguments":{}}}`)
	if e, ok := ws.reply(5)["error"].(map[string]any); !ok || e["code"] != float64(-32602) {
		t.Errorf("unknown tool: want JSON-RPC error -32602, got %v", e)
	}
	ws.close()
}

// A client of the 2026-07-28 revision: per-request _meta, server/discover.
func TestServeStdioDiscover(t *testing.T) {
	ws := startServe(t, "-root", "practice-data")
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"wire","version":"0"}}`
	ws.send(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`)
	disc, _ := ws.reply(1)["result"].(map[string]any)
	if !strings.Contains(fmt.Sprint(disc["supportedVersions"]), "2026-07-28") {
		t.Errorf("server/discover: %v", disc)
	}
	ws.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta + `,"name":"search_notes","arguments":{"query":"CAFÉ"}}}`)
	if text, isErr := toolText(t, ws.reply(2)); isErr || !strings.Contains(text, "café meetup") {
		t.Errorf("CAFÉ: isError=%v %s", isErr, text)
	}
	ws.close()
	if ws.stderr.String() != "" {
		t.Errorf("serve wrote to stderr at the default level: %s", ws.stderr)
	}
}

// runCmd runs the binary and returns its stdout, stderr and exit code.
func runCmd(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestSearchCommand(t *testing.T) {
	out, errOut, code := runCmd(t, nil, "search", "sign-in")
	if code != 0 || !strings.Contains(out, "sample-notes.md:") || !strings.Contains(out, "(N2)") ||
		!strings.Contains(out, "the sign-in form accepted") {
		t.Errorf("search sign-in: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	out, errOut, code = runCmd(t, nil, "search", strings.Repeat("x", 201))
	if code == 0 || out != "" || !strings.Contains(errOut, "search refused") {
		t.Errorf("a refused search must fail loudly: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	out, _, code = runCmd(t, nil, "search", "-json", "no such phrase anywhere")
	if code != 0 || !strings.Contains(out, `"matches": []`) {
		t.Errorf("search -json for a miss: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, nil, "tools")
	if code != 0 || !strings.Contains(out, `"name": "search_notes"`) || !strings.Contains(out, `"maxLength": 200`) {
		t.Errorf("tools: exit %d\n%s", code, out)
	}
}

// The root comes from -root, else PRACTICE_NOTES_ROOT, else ./practice-data;
// a bad root fails with one line on stderr and nothing on stdout.
func TestRootSelection(t *testing.T) {
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "x.md"), []byte("only in the env root\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCmd(t, []string{"PRACTICE_NOTES_ROOT=" + other}, "search", "env root")
	if code != 0 || !strings.Contains(out, "x.md:1") {
		t.Errorf("PRACTICE_NOTES_ROOT not used: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, []string{"PRACTICE_NOTES_ROOT=" + other}, "search", "-root", "practice-data", "env root")
	if code != 0 || !strings.Contains(out, "No notes matched") {
		t.Errorf("-root does not win over the environment: exit %d\n%s", code, out)
	}
	file := filepath.Join(other, "x.md")
	for _, args := range [][]string{
		{"serve", "-root", filepath.Join(other, "missing")},
		{"serve", "-root", file},
		{"search", "-root", filepath.Join(other, "missing"), "x"},
	} {
		out, errOut, code := runCmd(t, nil, args...)
		if code == 0 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || errOut == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want failure with one stderr line", args, code, out, errOut)
		}
	}
}

// Requests already sent when the client closes stdin are still answered:
// "printf requests | practice-notes serve" gets every reply, then the
// process exits 0.
func TestServeAnswersBeforeExit(t *testing.T) {
	ws := startServe(t, "-root", "practice-data")
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"sign-in"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"café"}}}`,
	} {
		ws.send(line)
	}
	ws.stdin.Close()
	ws.waitExit(2 * time.Second)
	var ids []float64
	for line := range ws.lines {
		var msg map[string]any
		if err := json.Unmarshal(line, &msg); err != nil {
			t.Fatalf("stdout line is not JSON: %q", line)
		}
		id, _ := msg["id"].(float64)
		ids = append(ids, id)
	}
	// Calls are answered concurrently, so in any order.
	slices.Sort(ids)
	if fmt.Sprint(ids) != "[1 2 3 4]" {
		t.Errorf("answered ids %v; want 1, 2, 3 and 4", ids)
	}
}

// serve prints its one-line hint on stderr only when stdin is a terminal:
// not for /dev/null (a character device, but not a terminal), and yes for a
// pseudo-terminal made by script(1).
func TestServeTerminalHint(t *testing.T) {
	const hint = "waiting for an MCP client"
	cmd := exec.Command(binary(t), "serve", "-root", "practice-data") // stdin is /dev/null
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || out.Len() != 0 || errb.Len() != 0 {
		t.Errorf("serve < /dev/null: %v, stdout %q, stderr %q; want exit 0 and no output", err, out.String(), errb.String())
	}
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script(1) is not installed, so the terminal case was not run")
	}
	tty, err := exec.Command(script, "-qec", binary(t)+" serve -root practice-data", "/dev/null").CombinedOutput()
	if err != nil || !strings.Contains(string(tty), hint) {
		t.Errorf("serve on a terminal: %v, output %q; want the hint", err, tty)
	}
}
