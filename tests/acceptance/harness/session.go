package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/sandbox"

	"practice-notes/tests/acceptance/visible"
)

// outputCap bounds what is kept of one process's stdout and of its stderr.
const outputCap = 1 << 20

// maxViolations bounds the stdout lines kept as evidence of pollution.
const maxViolations = 20

// capBuffer is a concurrency-safe buffer that keeps the first max bytes.
type capBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	max     int
	dropped int
}

func (b *capBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.max - b.buf.Len()
	if room < len(p) {
		if room > 0 {
			b.buf.Write(p[:room])
		}
		b.dropped += len(p) - max(room, 0)
		return len(p), nil
	}
	b.buf.Write(p)
	return len(p), nil
}

func (b *capBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// cut says how much was dropped, or "" when everything was kept.
func (b *capBuffer) cut() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped == 0 {
		return ""
	}
	return fmt.Sprintf("capture cut at %d bytes; %d more bytes were not kept", b.max, b.dropped)
}

// stdoutTap reads the server's stdout line by line, records every byte, and
// forwards only lines that are JSON-RPC messages to the SDK client. Anything
// else (a banner, log output) is recorded as a violation and dropped, so the
// remaining checks can still run and check 8 can report it.
type stdoutTap struct {
	pr *io.PipeReader
	pw *io.PipeWriter

	mu         sync.Mutex
	raw        capBuffer
	messages   int
	badLines   int
	violations []string // the first maxViolations of badLines
	done       chan struct{}
	wire       *wire
	// bad is closed at the first stdout line that is not a JSON-RPC
	// message; split gathers such lines that together make one.
	bad     chan struct{}
	badOnce sync.Once
	split   splitLines
}

func newStdoutTap(src io.Reader) *stdoutTap {
	pr, pw := io.Pipe()
	t := &stdoutTap{pr: pr, pw: pw, raw: capBuffer{max: outputCap}, done: make(chan struct{}), bad: make(chan struct{})}
	go t.loop(src)
	return t
}

// maxStdoutLine matches the SDK's default frame limit.
const maxStdoutLine = 16 << 20

// readLine reads one newline-terminated line; a line longer than max is
// drained and reported as too long instead of being held in memory.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, tooLong, err
	}
}

func (t *stdoutTap) loop(src io.Reader) {
	defer close(t.done)
	br := bufio.NewReaderSize(src, 64<<10)
	forward := true
	n := 0 // stdout lines read
	for {
		line, tooLong, err := readLine(br, maxStdoutLine)
		if len(line) > 0 || tooLong {
			n++
		}
		if tooLong {
			t.addViolation(fmt.Sprintf("stdout line longer than %d bytes", maxStdoutLine))
			forward = false // the client could not decode what follows
		}
		if len(line) > 0 {
			t.raw.Write(line)
			ok, why := classifyStdoutLine(line)
			if why != "" {
				t.split.add(line, n)
				t.badOnce.Do(func() { close(t.bad) })
			} else if ok {
				t.split.reset()
			}
			if ok {
				t.mu.Lock()
				t.messages++
				t.mu.Unlock()
				if t.wire != nil {
					t.wire.received(line, n)
				}
			} else if why != "" {
				t.addViolation(why)
				if msg, lines, ok := t.split.message(); ok {
					t.joinViolations(msg, lines)
				}
			}
			if ok && forward {
				if _, werr := t.pw.Write(line); werr != nil {
					forward = false // client closed; keep draining and recording
				}
			}
		}
		if err != nil {
			t.pw.Close()
			return
		}
	}
}

func (t *stdoutTap) addViolation(why string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.badLines++
	if len(t.violations) < maxViolations {
		t.violations = append(t.violations, why)
	}
}

func (t *stdoutTap) Read(p []byte) (int, error) { return t.pr.Read(p) }
func (t *stdoutTap) Close() error               { return t.pr.Close() }

// badCount is how many stdout lines were not JSON-RPC messages.
func (t *stdoutTap) badCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.badLines
}

func (t *stdoutTap) stats() (messages int, violations []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.messages, append([]string(nil), t.violations...)
}

// classifyStdoutLine reports whether one stdout line is a JSON-RPC 2.0
// message (or batch). Blank lines are neither messages nor violations.
func classifyStdoutLine(line []byte) (ok bool, violation string) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return false, ""
	}
	bad := fmt.Sprintf("non-JSON-RPC stdout line: %q", visible.Truncate(string(trimmed), 120))
	isMsg := func(raw json.RawMessage) bool {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return false
		}
		return string(m["jsonrpc"]) == `"2.0"`
	}
	switch trimmed[0] {
	case '{':
		if isMsg(trimmed) {
			return true, ""
		}
	case '[':
		var batch []json.RawMessage
		if json.Unmarshal(trimmed, &batch) == nil && len(batch) > 0 {
			for _, m := range batch {
				if !isMsg(m) {
					return false, bad
				}
			}
			return true, ""
		}
	}
	return false, bad
}

// wire records the JSON-RPC lines the client wrote to the server's stdin
// and the messages the server wrote to stdout, so that evidence quotes
// what crossed the pipes rather than a re-encoding of it.
type wire struct {
	mu   sync.Mutex
	sent []string
	got  []string
	// gotAt says, for each line of got, its stdout line number and how
	// many lines had been sent when it came.
	gotAt []wireAt
	w     io.WriteCloser
	part  []byte
}

func (w *wire) Close() error { return w.w.Close() }

// maxWireLines bounds what one process's wire record keeps.
const maxWireLines = 4000

func (w *wire) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.part = append(w.part, p...)
	for {
		i := bytes.IndexByte(w.part, '\n')
		if i < 0 {
			break
		}
		if len(w.sent) < maxWireLines {
			w.sent = append(w.sent, string(w.part[:i]))
		}
		w.part = w.part[i+1:]
	}
	w.mu.Unlock()
	return w.w.Write(p)
}

func (w *wire) received(line []byte, n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.got) < maxWireLines {
		w.got = append(w.got, strings.TrimRight(string(line), "\r\n"))
		w.gotAt = append(w.gotAt, wireAt{line: n, sent: len(w.sent)})
	}
}

func (w *wire) mark() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.sent)
}

// pair finds the first request for method written since mark and the
// reply with its id.
func (w *wire) pair(mark int, method string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, line := range w.sent[min(mark, len(w.sent)):] {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal([]byte(line), &m) != nil || m.Method != method || len(m.ID) == 0 {
			continue
		}
		out := []string{line}
		for _, g := range w.got {
			if !strings.Contains(g, string(m.ID)) {
				// Its id, compared byte for byte, is not in it: not
				// decoded, as every earlier reply would be for each call.
				continue
			}
			var r struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal([]byte(g), &r) == nil && r.Method == "" && bytes.Equal(r.ID, m.ID) {
				out = append(out, g)
				break
			}
		}
		return out
	}
	return nil
}

// session is one server process with a connected SDK client.
type session struct {
	check string
	cmd   *exec.Cmd
	stdin *os.File
	cs    *mcp.ClientSession
	tap   *stdoutTap
	wire  *wire
	tools []pathTool // read-only path tools, once asked
	// sb is the run's sandbox, cgAt its cgroup's counters when this
	// process started.
	sb     *sandbox.Sandbox
	cgAt   sandbox.Counts
	stderr *capBuffer
	// cpuAt is the CPU time the server's processes had used when the
	// current call was sent; cpuOK says it could be read.
	cpuAt   time.Duration
	cpuOK   bool
	errDone chan struct{} // closed when stderr has been read to its end
	timeout time.Duration

	done    chan struct{} // closed when the process has exited
	waitErr error
	exitAt  time.Time

	exchanges []*checks.Exchange
	// calls keeps what the harness alone reads of each exchange.
	calls     calls
	connectMs int64
	requested string   // protocol version asked for ("" = SDK default)
	checks    []string // the checks this process served
	lastExit  exitInfo
	stopped   *exitInfo
	// stuck describes the first request the server did not answer in
	// time; later requests in the session are not sent, so that a hung
	// server costs one timeout per check, not one per request.
	stuck string
}

var safeArgRe = regexp.MustCompile(`^[A-Za-z0-9_./:@%+=,-]+$`)

// expandCommand replaces {root} in the server command line, shell-quoting
// the path when it holds characters the shell would interpret: for sh in
// single quotes, for cmd.exe (Windows) in double quotes, the only ones it
// knows, which no Windows path can hold.
func expandCommand(template, root string) string {
	return expandCommandFor(runtime.GOOS, template, root)
}

func expandCommandFor(goos, template, root string) string {
	q := root
	switch {
	case safeArgRe.MatchString(root):
	case goos == "windows":
		q = `"` + root + `"`
	default:
		q = "'" + strings.ReplaceAll(root, "'", `'\''`) + "'"
	}
	return strings.ReplaceAll(template, "{root}", q)
}

type sessionConfig struct {
	command         string
	root            string
	timeout         time.Duration
	startTimeout    time.Duration
	protocolVersion string
	sb              *sandbox.Sandbox
	home, tmp       string // fresh HOME and TMPDIR for this process
	// calls is where the session keeps what the harness alone reads of
	// its exchanges; nil for a map of the session's own.
	calls calls
}

func startSession(ctx context.Context, check string, cfg sessionConfig) (*session, error) {
	s, err := startProcess(check, cfg)
	if err != nil {
		return nil, err
	}
	return s, s.connect(ctx, cfg)
}

// startProcess starts the server with its stdin, stdout and stderr on
// pipes the session reads.
func startProcess(check string, cfg sessionConfig) (*session, error) {
	cmd := cfg.sb.Command(expandCommand(cfg.command, cfg.root))
	cmd.Env = append(cmd.Env, cfg.sb.Env(cfg.root, cfg.home, cfg.tmp)...)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	s := &session{check: check, cmd: cmd, stdin: inW, sb: cfg.sb, stderr: &capBuffer{max: outputCap}, timeout: cfg.timeout, done: make(chan struct{}), requested: cfg.protocolVersion}
	if s.requested == "" {
		s.requested = "SDK default"
	}
	if s.calls = cfg.calls; s.calls == nil {
		s.calls = calls{}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdin = inR
	cmd.Stdout = outW
	// A file, not a buffer: Wait then returns when the process exits, even
	// if something it started still holds stderr open.
	cmd.Stderr = errW
	s.cgAt = cfg.sb.Counts()
	if err := cfg.sb.Start(cmd); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		return nil, fmt.Errorf("starting server: %w", err)
	}
	inR.Close()
	outW.Close()
	errW.Close()
	s.errDone = make(chan struct{})
	go func() { _, _ = io.Copy(s.stderr, errR); errR.Close(); close(s.errDone) }()
	go func() {
		s.waitErr = cmd.Wait()
		s.exitAt = time.Now()
		close(s.done)
	}()
	s.wire = &wire{w: inW}
	s.tap = newStdoutTap(outR)
	s.tap.wire = s.wire
	go func() { <-s.tap.done; outR.Close() }()
	return s, nil
}

// connect runs the initialize handshake with the SDK's client; when it
// fails it stops the process and says why in words.
func (s *session) connect(ctx context.Context, cfg sessionConfig) error {
	client := mcp.NewClient(&mcp.Implementation{Name: "practice-notes-acceptance", Version: "1.0.0"}, nil)
	var opts *mcp.ClientSessionOptions
	if cfg.protocolVersion != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: cfg.protocolVersion}
	}
	cctx, cancel := context.WithTimeout(ctx, cfg.startTimeout)
	defer cancel()
	// Once stdout carries a line that is not a JSON-RPC message (a reply
	// pretty-printed over several lines, a log line), the answer to
	// initialize gets the request limit, not the whole start limit: a
	// server that prints its banner first still starts, one whose every
	// reply is unreadable is reported without waiting out the start.
	garbled := make(chan struct{})
	go func() {
		select {
		case <-s.tap.bad:
		case <-cctx.Done():
			return
		}
		select {
		case <-time.After(cfg.timeout):
			close(garbled)
			cancel()
		case <-cctx.Done():
		}
	}()
	t0 := time.Now()
	cs, err := client.Connect(cctx, &mcp.IOTransport{Reader: s.tap, Writer: s.wire}, opts)
	s.connectMs = time.Since(t0).Milliseconds()
	if err != nil {
		why := s.whyNotStarted(cctx, garbled, cfg)
		if why == "" {
			why = err.Error()
		}
		s.stop(2 * time.Second)
		return fmt.Errorf("server did not start: %s (connect failed after %d ms: %v)", why, s.connectMs, err)
	}
	s.cs = cs
	return nil
}

// whyNotStarted says why initialize got no answer: stdout that no client
// reads, a process that exited, or the start limit passed; "" when none
// of these.
func (s *session) whyNotStarted(cctx context.Context, garbled <-chan struct{}, cfg sessionConfig) string {
	select {
	case <-garbled:
		why := fmt.Sprintf("no initialize answer within %s (the request limit) of the first stdout line that is not a JSON-RPC message", cfg.timeout)
		if _, v := s.tap.stats(); len(v) > 0 {
			why += "; stdout carried " + v[0]
		}
		return why
	default:
	}
	select {
	case <-s.done:
		why := fmt.Sprintf("the process exited (%v) before completing initialize", s.waitErr)
		if sig := s.sb.StartSignal(s.cmd.ProcessState.ExitCode()); sig != "" {
			why += "; " + sig
		}
		return why
	case <-time.After(200 * time.Millisecond): // time to reap a process that just exited
		if errors.Is(cctx.Err(), context.DeadlineExceeded) {
			return fmt.Sprintf("no initialize answer within %s", cfg.startTimeout)
		}
	}
	return ""
}

// outputTail quotes the last lines the process wrote, for evidence.
func (s *session) outputTail() []string {
	var out []string
	tail := func(name, text, cut string) {
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		if len(lines) > 5 {
			lines = lines[len(lines)-5:]
		}
		for _, l := range lines {
			if strings.TrimSpace(l) != "" {
				out = append(out, name+": "+visible.Clip(l, 300))
			}
		}
		if cut != "" {
			out = append(out, name+": ("+cut+")")
		}
	}
	tail("stdout", s.tap.raw.String(), s.tap.raw.cut())
	tail("stderr", s.stderr.String(), s.stderr.cut())
	if hit := s.limitHit(); hit != "" {
		out = append(out, hit)
	}
	if len(out) == 0 {
		out = append(out, "the process wrote nothing on stdout or stderr")
	}
	return out
}

// limitHit names the limit the process ran into, or "".
func (s *session) limitHit() string {
	code := 0
	if s.exited() && s.cmd.ProcessState != nil {
		code = s.cmd.ProcessState.ExitCode()
	}
	return s.sb.LimitHit(s.stderr.String(), code, s.cgAt)
}

// exited reports whether the process has ended.
func (s *session) exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// exitInfo describes how the process ended after its stdin was closed.
type exitInfo struct {
	OnItsOwn bool          // exited before the harness signalled it
	After    time.Duration // from stdin close to exit
	Code     int
	Signal   string // "SIGTERM" or "SIGKILL" if the harness had to send one
}

// stop closes the client side (which closes the server's stdin), waits up
// to grace for the process to exit, then terminates and kills its group.
func (s *session) stop(grace time.Duration) exitInfo {
	if s.stopped != nil {
		return *s.stopped
	}
	defer func() { info := s.lastExit; s.stopped = &info }()
	closedAt := time.Now()
	if s.cs != nil {
		closed := make(chan struct{})
		go func() { _ = s.cs.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(grace):
		}
	}
	s.stdin.Close()
	var info exitInfo
	select {
	case <-s.done:
		info.OnItsOwn = true
	case <-time.After(grace):
		info.Signal = "SIGTERM"
		sandbox.Terminate(s.cmd)
		select {
		case <-s.done:
		case <-time.After(2 * time.Second):
			info.Signal = "SIGKILL"
			sandbox.Kill(s.cmd)
			<-s.done
		}
	}
	info.After = s.exitAt.Sub(closedAt)
	if s.cmd.ProcessState != nil {
		info.Code = s.cmd.ProcessState.ExitCode()
	}
	s.lastExit = info
	select {
	case <-s.tap.done:
	case <-time.After(time.Second):
		// Something in the server's process group still holds stdout open
		// (a child of a wrapper shell): stop that group too.
		sandbox.Kill(s.cmd)
		select {
		case <-s.tap.done:
		case <-time.After(2 * time.Second):
		}
	}
	// Whatever the server started and left behind in its group goes too.
	sandbox.Kill(s.cmd)
	// Its last words on stderr are evidence: read them before anyone quotes.
	select {
	case <-s.errDone:
	case <-time.After(2 * time.Second):
	}
	return info
}

func (s *session) record(ex *checks.Exchange, t0 time.Time, mark int, ctx context.Context, err error) {
	ex.Millis = time.Since(t0).Milliseconds()
	ex.Wire = s.wire.pair(mark, ex.Method)
	if err != nil {
		ex.Error = err.Error()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			ex.TimedOut = true
			ex.Error = fmt.Sprintf("no answer within %s (%v)", s.timeout, err)
			if w := s.waited(); w != "" {
				ex.Error += "; " + w
			}
			if s.stuck == "" {
				s.stuck = fmt.Sprintf("%s %s", ex.Method, visible.Clip(ex.Request, 100))
			}
		}
		s.calls.of(ex).text = ex.Error
	}
	s.exchanges = append(s.exchanges, ex)
}

// begin marks the start of a call: the time, the wire's place, and the
// CPU time the server's processes had used (for waited).
func (s *session) begin() (time.Time, int) {
	s.cpuAt, s.cpuOK = 0, false
	if s.cmd != nil && s.cmd.Process != nil {
		s.cpuAt, s.cpuOK = sandbox.TreeCPU(s.cmd.Process.Pid)
	}
	return time.Now(), s.wire.mark()
}

// waited says what the server's processes did while a call waited out
// the limit, where the system tells: the CPU time they used and whether
// one was running ("asleep" when none was), so that a server busy with
// the call is told apart from one waiting for something (a FIFO, a lock,
// a request it never read). "" when it cannot be read.
func (s *session) waited() string {
	if !s.cpuOK {
		return ""
	}
	u, ok := sandbox.TreeUsage(s.cmd.Process.Pid)
	if !ok {
		return ""
	}
	used := max(u.CPU-s.cpuAt, 0).Milliseconds()
	if !u.Running {
		return fmt.Sprintf("meanwhile the server used %d ms of CPU, asleep at the limit", used)
	}
	// Running, yet using little of the limit: its threads' time queued
	// for a CPU tells a loaded machine from a server that waited on
	// something else. It is counted since each thread started: a baseline
	// at every call would cost a read per thread.
	queued := ""
	if u.Queued > 0 {
		queued = fmt.Sprintf(" (its threads had waited %d ms in all for a CPU)", u.Queued.Milliseconds())
	}
	return fmt.Sprintf("meanwhile the server used %d ms of CPU, running at the limit%s", used, queued)
}

// skipStuck records ex as not sent when the session is stuck.
func (s *session) skipStuck(ex *checks.Exchange) bool {
	if s.stuck == "" {
		return false
	}
	ex.NotSent = true
	ex.Error = "not sent: the server had not answered " + s.stuck + " within " + s.timeout.String()
	s.calls.of(ex).text = ex.Error
	s.exchanges = append(s.exchanges, ex)
	return true
}

func marshal(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("<unencodable: %v>", err)
	}
	return strings.TrimSpace(b.String())
}

// callSearch calls search_notes with one query.
func (s *session) callSearch(ctx context.Context, query string) *checks.Exchange {
	ex := s.callTool(ctx, "search_notes", map[string]any{"query": query}, query)
	s.calls.of(ex).query = query
	return ex
}

// callTool calls a tool with any arguments; sent lists the strings the
// arguments carry.
func (s *session) callTool(ctx context.Context, name string, args map[string]any, sent ...string) *checks.Exchange {
	ex := &checks.Exchange{
		Check:   s.check,
		Method:  "tools/call",
		Request: marshal(map[string]any{"name": name, "arguments": args}),
	}
	c := s.calls.of(ex)
	c.sent, c.tool = sent, name
	if s.skipStuck(ex) {
		return ex
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	t0, mark := s.begin()
	res, err := s.cs.CallTool(cctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err == nil {
		c.result = res
		ex.Decoded = marshal(res)
		ex.Display = compactToolReply(res)
		c.text = toolText(res) + "\n" + ex.Decoded
	}
	s.record(ex, t0, mark, cctx, err)
	return ex
}

// compactToolReply shows isError, structuredContent and each content block,
// without repeating a text block that only mirrors structuredContent.
func compactToolReply(res *mcp.CallToolResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "isError=%v", res.IsError)
	var sc any
	if res.StructuredContent != nil {
		sc = checks.NormalizeJSON(res.StructuredContent)
		b.WriteString(" structuredContent=" + marshal(sc))
	}
	for i, c := range res.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok {
			fmt.Fprintf(&b, " content[%d]=%s", i, marshal(c))
			continue
		}
		var v any
		if sc != nil && json.Unmarshal([]byte(t.Text), &v) == nil && marshal(v) == marshal(sc) {
			fmt.Fprintf(&b, " content[%d]=text holding the same JSON as structuredContent", i)
			continue
		}
		fmt.Fprintf(&b, " content[%d]=text %s", i, marshal(t.Text))
	}
	return b.String()
}

// toolText joins the text of every content block.
func toolText(res *mcp.CallToolResult) string { return checks.ToolText(res) }

func (s *session) listTools(ctx context.Context) ([]*mcp.Tool, *checks.Exchange) {
	ex := &checks.Exchange{Check: s.check, Method: "tools/list", Request: "{}"}
	if s.skipStuck(ex) {
		return nil, ex
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	t0, mark := s.begin()
	var tools []*mcp.Tool
	var err error
	for t, e := range s.cs.Tools(cctx, nil) {
		if e != nil {
			err = e
			break
		}
		tools = append(tools, t)
		if len(tools) > 1000 {
			break
		}
	}
	if err == nil {
		ex.Decoded = marshal(map[string]any{"tools": tools})
		s.calls.of(ex).text = ex.Decoded
	}
	s.record(ex, t0, mark, cctx, err)
	return tools, ex
}

func (s *session) resourcesOffered() bool {
	ir := s.cs.InitializeResult()
	return ir != nil && ir.Capabilities != nil && ir.Capabilities.Resources != nil
}

func (s *session) readResource(ctx context.Context, uri string, extraSent ...string) *checks.Exchange {
	ex := &checks.Exchange{
		Check:   s.check,
		Method:  "resources/read",
		Request: marshal(map[string]any{"uri": uri}),
	}
	s.calls.of(ex).sent = append([]string{uri}, extraSent...)
	if s.skipStuck(ex) {
		return ex
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	t0, mark := s.begin()
	res, err := s.cs.ReadResource(cctx, &mcp.ReadResourceParams{URI: uri})
	if err == nil {
		ex.Decoded = marshal(res)
		var parts []string
		for _, c := range res.Contents {
			if c != nil {
				parts = append(parts, c.Text, string(c.Blob))
			}
		}
		s.calls.of(ex).text = strings.Join(parts, "\n") + "\n" + ex.Decoded
	}
	s.record(ex, t0, mark, cctx, err)
	return ex
}
