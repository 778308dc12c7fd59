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
