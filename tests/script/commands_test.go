package script

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/testscript"
)

// commands are the scripts' own commands, beside testscript's.
var commands = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"json":   cmdJSON,
	"status": cmdStatus,
	"tree":   cmdTree,
	"wire":   cmdWire,
	"write":  cmdWrite,
}

// cmdTree is
//
//	tree DIR
//
// which prints one line for every entry under DIR: its path from DIR,
// type and permissions, size, modification time and, for a regular file,
// the SHA-256 of its content. Two listings compared with cmp show that
// nothing under DIR changed.
func cmdTree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tree dir")
	}
	dir := ts.MkAbs(args[0])
	out := ts.Stdout()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s %v %d %v", filepath.ToSlash(rel), info.Mode(), info.Size(), info.ModTime().UnixNano())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, " %x", sha256.Sum256(data))
		}
		fmt.Fprintln(out)
		return nil
	})
	ts.Check(err)
}

// cmdJSON is
//
//	[!] json FILE
//
// which checks that FILE (or stdout, or stderr) holds one JSON object.
func cmdJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: json file")
	}
	var v map[string]any
	err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &v)
	switch {
	case err != nil && !neg:
		ts.Fatalf("%s is not one JSON object: %v", args[0], err)
	case err == nil && neg:
		ts.Fatalf("%s is one JSON object", args[0])
	}
}

// cmdWrite is
//
//	write FILE TEXT
//
// which writes TEXT to FILE, making its folder. TEXT is a Go string
// literal, "..." with its escapes, and so is FILE when it starts with a
// double quote: for bytes, such as terminal control sequences, that a
// txtar archive should not hold.
func cmdWrite(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: write file text")
	}
	name := args[0]
	if strings.HasPrefix(name, `"`) {
		var err error
		if name, err = strconv.Unquote(name); err != nil {
			ts.Fatalf("file name %s: %v", args[0], err)
		}
	}
	text, err := strconv.Unquote(args[1])
	if err != nil {
		ts.Fatalf("text %s: %v", args[1], err)
	}
	path := ts.MkAbs(name)
	ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
	ts.Check(os.WriteFile(path, []byte(text), 0o644))
}

// cmdStatus is
//
//	status [-devnull] N PROGRAM [ARGS...]
//
// which runs PROGRAM as exec does and checks that it exits with status N
// (exec only tells zero from the rest). With -devnull its stdin is the
// null device, as for "PROGRAM < /dev/null" (exec's is always a pipe).
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	devnull := fs.Bool("devnull", false, "give the program the null device as stdin")
	if neg || fs.Parse(args) != nil || fs.NArg() < 2 {
		ts.Fatalf("usage: status [-devnull] N program [args...]")
	}
	want, err := strconv.Atoi(fs.Arg(0))
	if err != nil {
		ts.Fatalf("usage: status [-devnull] N program [args...]: %v", err)
	}
	prog, progArgs := fs.Arg(1), fs.Args()[2:]
	if *devnull {
		cmd := exec.Command(lookPath(ts, prog), progArgs...)
		cmd.Dir, cmd.Env = ts.MkAbs("."), scriptEnv(ts)
		cmd.Stdout, cmd.Stderr = ts.Stdout(), ts.Stderr() // nil Stdin is the null device
		err = cmd.Run()
	} else {
		err = ts.Exec(prog, progArgs...)
	}
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", prog, err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d; want %d", prog, got, want)
	}
}

// scriptEnv is the environment a program started by status or wire gets:
// the script's PATH, HOME, temporary folder and PRACTICE_NOTES_ROOT.
func scriptEnv(ts *testscript.TestScript) []string {
	env := []string{}
	for _, k := range []string{"PATH", "HOME", "USERPROFILE", "TMPDIR", "TMP", "TEMP", "SYSTEMROOT", "PRACTICE_NOTES_ROOT"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// cmdWire is
//
//	wire [-noenv] SESSION PROGRAM [ARGS...]
//
// which starts PROGRAM with its stdin and stdout on pipes, as an MCP
// client starts a server, and plays the steps of the file SESSION, one a
// line (blank lines and lines starting with # are skipped):
//
//	send LINE         write LINE and a newline to the program's stdin
//	recv ID           wait up to 20s for the next stdout line, which must
//	                  be the reply to ID (as JSON: 1, "init")
//	close stdin       close the program's stdin (end of input)
//	close stdout      stop reading the program's stdout and close it, as a
//	                  client that goes away does; sends after this may fail
//	                  and are not errors
//	signal TERM|INT   send the program SIGTERM or SIGINT
//	sleep DURATION    wait
//	exit DURATION     the program must exit, with status 0, within DURATION
//	                  of this step
//	http-search QUERY wait up to 20s for the program to name its endpoint on
//	                  stderr (url=http://127.0.0.1:PORT/mcp), then call
//	                  search_notes with QUERY there with the Go SDK's HTTP
//	                  client; the call must succeed and not be a tool error
//
// A session that ends with no exit step closes stdin and waits as
// "exit 5s". Every line the program writes to stdout must be one
// newline-terminated JSON-RPC 2.0 message. Afterwards the command's stdout
// is every line the program wrote to stdout, in order, read or not by recv,
// and its stderr is the program's stderr, for stdout and stderr to check.
//
// The program runs in the script's directory with the environment of
// scriptEnv; with -noenv, with no environment at all.
func cmdWire(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("wire", flag.ContinueOnError)
	noenv := fs.Bool("noenv", false, "start the program with an empty environment")
	if neg || fs.Parse(args) != nil || fs.NArg() < 2 {
		ts.Fatalf("usage: wire [-noenv] session program [args...]")
	}
	steps := strings.Split(ts.ReadFile(fs.Arg(0)), "\n")
	cmd := exec.Command(lookPath(ts, fs.Arg(1)), fs.Args()[2:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = []string{}
	if !*noenv {
		cmd.Env = scriptEnv(ts)
	}
	w := &wireRun{ts: ts, cmd: cmd, more: make(chan struct{}, 1), eof: make(chan struct{}), exited: make(chan struct{})}
	var err error
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		ts.Fatalf("%v", err)
	}
	if w.stdout, err = cmd.StdoutPipe(); err != nil {
		ts.Fatalf("%v", err)
	}
	cmd.Stderr = &w.stderr
	if err := cmd.Start(); err != nil {
		ts.Fatalf("%v", err)
	}
	go w.read()
	go func() {
		<-w.eof // Wait closes stdout, so read it to its end first
		w.exitErr = cmd.Wait()
		close(w.exited)
	}()
	ts.Defer(func() {
		cmd.Process.Kill()
		w.stdout.Close()
		<-w.exited
	})
	w.out, w.errOut = ts.Stdout(), ts.Stderr()

	exited := false
	for n, step := range steps {
		step = strings.TrimSpace(step)
		if step == "" || strings.HasPrefix(step, "#") {
			continue
		}
		w.where = fmt.Sprintf("%s:%d: %s", fs.Arg(0), n+1, step)
		verb, arg, _ := strings.Cut(step, " ")
		switch verb {
		case "send":
			w.send(arg)
		case "recv":
			w.recv(arg)
		case "close":
			switch arg {
			case "stdin":
				w.stdin.Close()
			case "stdout":
				w.stdoutClosed = true
				w.stdout.Close()
			default:
				w.fail("close what? stdin or stdout")
			}
		case "signal":
			sig, ok := map[string]os.Signal{"TERM": syscall.SIGTERM, "INT": os.Interrupt}[arg]
			if !ok {
				w.fail("signal TERM or INT")
			}
			if err := cmd.Process.Signal(sig); err != nil {
				w.fail("%v", err)
			}
		case "sleep":
			time.Sleep(w.duration(arg))
		case "exit":
			w.exit(w.duration(arg))
			exited = true
		case "http-search":
			w.httpSearch(arg)
		default:
			w.fail("unknown step")
		}
	}
	if !exited {
		w.where = fs.Arg(0) + ": end of the session"
		w.stdin.Close()
		w.exit(5 * time.Second)
	}
	w.flush()
	if w.bad != "" {
		ts.Fatalf("%s", w.bad)
	}
}

// wireRun is one run of the wire command.
type wireRun struct {
	ts           *testscript.TestScript
	cmd          *exec.Cmd
	stdin        io.WriteCloser
	stdout       io.ReadCloser
	stdoutClosed bool
	stderr       lockedBuffer
	where        string // the step being played, for messages

	more    chan struct{} // signalled when a stdout line arrives
	eof     chan struct{} // closed when stdout has been read to its end
	exited  chan struct{} // closed when the program has exited
	exitErr error         // Wait's result, once exited is closed

	mu    sync.Mutex
	all   [][]byte // every stdout line, in order
	taken int      // how many of them recv has taken
	bad   string   // the first stdout line that is not one JSON-RPC message, described

	out, errOut io.Writer // the command's stdout and stderr
	flushed     bool
}

func (w *wireRun) read() {
	defer close(w.eof)
	r := bufio.NewReaderSize(w.stdout, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			w.mu.Lock()
			w.all = append(w.all, line)
			if problem := checkLine(line); problem != "" && w.bad == "" {
				w.bad = problem
			}
			w.mu.Unlock()
			select {
			case w.more <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// checkLine describes how line fails to be one JSON-RPC 2.0 message and a
// newline, or returns "".
func checkLine(line []byte) string {
	if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
		return fmt.Sprintf("stdout line is not one newline-terminated line: %.300q", line)
	}
	var msg map[string]any
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&msg); err != nil {
		return fmt.Sprintf("stdout carried a line that is not a JSON object: %.300q", line)
	}
	if dec.More() {
		return fmt.Sprintf("stdout line holds more than one JSON value: %.300q", line)
	}
	if msg["jsonrpc"] != "2.0" {
		return fmt.Sprintf("stdout line is not JSON-RPC 2.0: %.300q", line)
	}
	return ""
}

// flush writes what the program printed so far as the command's output.
func (w *wireRun) flush() {
	if w.flushed {
		return
	}
	w.flushed = true
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range w.all {
		w.out.Write(l)
	}
	io.WriteString(w.errOut, w.stderr.String())
}

func (w *wireRun) fail(format string, args ...any) {
	w.flush()
	w.ts.Fatalf("%s: %s", w.where, fmt.Sprintf(format, args...))
}

func (w *wireRun) duration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		w.fail("%v", err)
	}
	return d
}

func (w *wireRun) send(line string) {
	if _, err := io.WriteString(w.stdin, line+"\n"); err != nil && !w.stdoutClosed {
		w.fail("writing to the program: %v", err)
	}
}

func (w *wireRun) recv(id string) {
	timeout := time.After(20 * time.Second)
	for {
		w.mu.Lock()
		var line []byte
		if w.taken < len(w.all) {
			line = w.all[w.taken]
			w.taken++
		}
		w.mu.Unlock()
		if line != nil {
			var msg struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal(line, &msg); err != nil || msg.JSONRPC != "2.0" || string(msg.ID) != id {
				w.fail("stdout carried %q; want the JSON-RPC reply to id %s", line, id)
			}
			return
		}
		select {
		case <-w.more:
		case <-w.eof:
			w.mu.Lock()
			left := w.taken < len(w.all) // the last lines came with the end
			w.mu.Unlock()
			if !left {
				w.fail("stdout closed before the reply")
			}
		case <-timeout:
			w.fail("no reply within 20s")
		}
	}
}

func (w *wireRun) exit(within time.Duration) {
	start := time.Now()
	select {
	case <-w.exited:
		if w.exitErr != nil {
			w.fail("the program exited with %v; want status 0", w.exitErr)
		}
		w.ts.Logf("the program exited %v after this step", time.Since(start).Round(time.Millisecond))
	case <-time.After(within):
		w.fail("the program did not exit within %v", within)
	}
}

var endpointRE = regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+/mcp)`)

func (w *wireRun) httpSearch(query string) {
	var endpoint string
	for deadline := time.Now().Add(20 * time.Second); endpoint == ""; time.Sleep(10 * time.Millisecond) {
		if m := endpointRE.FindStringSubmatch(w.stderr.String()); m != nil {
			endpoint = m[1]
		} else if time.Now().After(deadline) {
			w.fail("the program did not say where it listens within 20s")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "wire", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		w.fail("connecting to %s: %v", endpoint, err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": query}})
	if err != nil || res.IsError {
		w.fail("search over HTTP: %+v, %v", res, err)
	}
}

// lookPath finds prog on the script's PATH, as exec does.
func lookPath(ts *testscript.TestScript, prog string) string {
	if filepath.Base(prog) != prog {
		return ts.MkAbs(prog)
	}
	if runtime.GOOS == "windows" && filepath.Ext(prog) == "" {
		prog += ".exe"
	}
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if p := filepath.Join(dir, prog); isFile(p) {
			return p
		}
	}
	ts.Fatalf("%s is not on the script's PATH", prog)
	return ""
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

// lockedBuffer is a destination safe for concurrent writes.
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
