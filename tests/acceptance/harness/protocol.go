package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"practice-notes/tests/acceptance/sandbox"
)

// rawSession speaks JSON-RPC lines to a server directly, without the SDK
// client, so that the protocol checks can send what a client library never
// would: string ids, unknown methods, a line that is not JSON.
type rawSession struct {
	cmd     *exec.Cmd
	stdin   interface{ Write([]byte) (int, error) }
	closeIn func() error
	msgs    chan map[string]json.RawMessage
	stderr  *capBuffer
	done    chan struct{}
	timeout time.Duration
}

func (r *runner) startRaw(home, tmp string) (*rawSession, error) {
	cmd := r.sb.Command(expandCommand(r.cfg.Server, r.lay.Root))
	cmd.Env = append(cmd.Env, r.sb.Env(r.lay.Root, home, tmp)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	rs := &rawSession{cmd: cmd, stdin: in, closeIn: in.Close, msgs: make(chan map[string]json.RawMessage, 64),
		stderr: &capBuffer{max: outputCap}, done: make(chan struct{}), timeout: r.cfg.Timeout}
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = errW // a file: Wait returns when the process exits
	if err := r.sb.Start(cmd); err != nil {
		errR.Close()
		errW.Close()
		return nil, fmt.Errorf("starting server: %w", err)
	}
	errW.Close()
	go func() { _, _ = io.Copy(rs.stderr, errR); errR.Close() }()
	go func() {
		defer close(rs.msgs)
		br := bufio.NewReaderSize(out, 64<<10)
		for {
			line, tooLong, err := readLine(br, maxStdoutLine)
			if !tooLong && len(line) > 0 {
				var m map[string]json.RawMessage
				if json.Unmarshal(line, &m) == nil {
					rs.msgs <- m
				}
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { _ = cmd.Wait(); close(rs.done) }()
	return rs, nil
}

// send writes one line and waits for the reply with the given id (the raw
// JSON of the id); id "" waits for nothing. seen collects every message
// read meanwhile.
func (rs *rawSession) send(line, id string, seen *[]map[string]json.RawMessage) (map[string]json.RawMessage, *Exchange) {
	ex := &Exchange{Check: "8.x", Method: methodOf(line), Request: line}
	t0 := time.Now()
	if _, err := rs.stdin.Write([]byte(line + "\n")); err != nil {
		ex.Error = "could not write: " + err.Error()
		return nil, ex
	}
	if id == "" {
		return nil, ex
	}
	deadline := time.After(rs.timeout)
	for {
		select {
		case m, ok := <-rs.msgs:
			if !ok {
				ex.Millis = time.Since(t0).Milliseconds()
				ex.Error = "the server closed stdout (exited) without answering"
				return nil, ex
			}
			*seen = append(*seen, m)
			if string(m["id"]) == id {
				ex.Millis = time.Since(t0).Milliseconds()
				ex.Reply = marshal(m)
				return m, ex
			}
		case <-deadline:
			ex.Millis = time.Since(t0).Milliseconds()
			ex.Error = fmt.Sprintf("no answer within %s", rs.timeout)
			ex.TimedOut = true
			return nil, ex
		}
	}
}

func methodOf(line string) string {
	var m struct {
		Method string `json:"method"`
	}
	if json.Unmarshal([]byte(line), &m) != nil || m.Method == "" {
		return "(not JSON)"
	}
	return m.Method
}

func (rs *rawSession) stop(grace time.Duration) {
	_ = rs.closeIn()
	// Whatever the server started and left behind in its group goes too.
	defer sandbox.Kill(rs.cmd)
	select {
	case <-rs.done:
		return
	case <-time.After(grace):
	}
	sandbox.Terminate(rs.cmd)
	select {
	case <-rs.done:
	case <-time.After(2 * time.Second):
		sandbox.Kill(rs.cmd)
		<-rs.done
	}
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func errorOf(m map[string]json.RawMessage) *rpcError {
	raw, ok := m["error"]
	if !ok {
		return nil
	}
	var e rpcError
	if json.Unmarshal(raw, &e) != nil {
		return &rpcError{Code: 0, Message: string(raw)}
	}
	return &e
}

// protocolChecks runs checks 8.1-8.7 in one raw session: they are
// warnings, since the SDK client of check 8 copes without them.
func (r *runner) protocolChecks(ctx context.Context) {
	ids := []string{"8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7"}
	cs := map[string]*CheckResult{}
	for _, id := range ids {
		cs[id] = r.checks[id]
	}
	if r.notStarted != "" {
		for _, id := range ids {
			cs[id].add(finding{msg: "server did not start; see check " + r.notStarted, hint: "Make the server start and answer initialize (see check " + r.notStarted + ")."})
		}
		return
	}
	home, tmp, err := r.processDirs("8.x")
	if err != nil {
		cs["8.1"].fail("preparing HOME and TMPDIR: %v", err)
		return
	}
	defer r.checkLeftovers("8.x", home, tmp)
	rs, err := r.startRaw(home, tmp)
	if err != nil {
		for _, id := range ids {
			cs[id].fail("%v", err)
		}
		return
	}
	r.rep.Processes++
	defer rs.stop(r.cfg.ExitTimeout)
	var seen []map[string]json.RawMessage
	keep := func(id string, ex *Exchange) {
		ex.Check = id
		cs[id].Exchanges = append(cs[id].Exchanges, ex)
	}

	init, ex := rs.send(`{"jsonrpc":"2.0","id":"init-1","method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"practice-notes-acceptance","version":"1.0.0"}}}`, `"init-1"`, &seen)
	keep("8.2", ex)
	if init == nil {
		// Perhaps the id's type is the trouble: try a number.
		init2, ex2 := rs.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"practice-notes-acceptance","version":"1.0.0"}}}`, `1`, &seen)
		if init2 == nil {
			for _, id := range ids {
				cs[id].add(finding{warn: true, msg: "initialize (protocol 2024-11-05) was not answered: " + ex.Error, ex: ex,
					detail: tailLines("stderr", rs.stderr.String()), hint: "Answer initialize for protocol revision 2024-11-05 (the official SDKs do)."})
			}
			return
		}
		cs["8.2"].warnOn(ex, "initialize with the string id \"init-1\" was not answered, the same request with id 1 was")
		init, ex = init2, ex2
	} else {
		cs["8.2"].Summary = `initialize with id "init-1" was answered with id "init-1"`
	}
	var res struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		Capabilities    map[string]json.RawMessage `json:"capabilities"`
	}
	if e := errorOf(init); e != nil {
		cs["8.6"].warnOn(ex, "initialize asking for 2024-11-05 got error %d %q", e.Code, e.Message)
	} else if err := json.Unmarshal(init["result"], &res); err != nil {
		cs["8.6"].warnOn(ex, "the initialize result does not decode: %v", err)
	} else {
		if res.ProtocolVersion != "2024-11-05" {
			cs["8.6"].warnOn(ex, "initialize asking for 2024-11-05 was answered with %q", res.ProtocolVersion)
		} else {
			cs["8.6"].Summary = "initialize asking for 2024-11-05 was answered with 2024-11-05"
		}
		if _, ok := res.Capabilities["tools"]; !ok {
			cs["8.7"].warnOn(ex, "the initialize result's capabilities have no \"tools\" entry")
		} else {
			cs["8.7"].Summary = "capabilities.tools is declared: " + string(res.Capabilities["tools"])
		}
	}
	keep("8.6", ex)
	keep("8.7", ex)
	rs.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", &seen)

	m, ex := rs.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, `2`, &seen)
	keep("8.1", ex)
	switch {
	case m == nil:
		cs["8.1"].warnOn(ex, "ping got no answer")
	case errorOf(m) != nil:
		cs["8.1"].warnOn(ex, "ping got an error")
	default:
		cs["8.1"].Summary = fmt.Sprintf("ping answered in %d ms with %s", ex.Millis, string(m["result"]))
	}

	m, ex = rs.send(`{"jsonrpc":"2.0","id":3,"method":"practice/no_such_method","params":{}}`, `3`, &seen)
	keep("8.3", ex)
	switch e := errorOf(m); {
	case m == nil:
		cs["8.3"].warnOn(ex, "an unknown method got no answer")
	case e == nil:
		cs["8.3"].warnOn(ex, "an unknown method got a result instead of an error")
	case e.Code != -32601:
		cs["8.3"].warnOn(ex, "an unknown method got error %d, not -32601", e.Code)
	default:
		cs["8.3"].Summary = "practice/no_such_method got -32601 " + clip(e.Message, 60)
	}

	m, ex = rs.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{"query":"sign-in"}}}`, `4`, &seen)
	keep("8.4", ex)
	switch e := errorOf(m); {
	case m == nil:
		cs["8.4"].warnOn(ex, "a call to an unknown tool got no answer")
	case e == nil:
		cs["8.4"].warnOn(ex, "a call to an unknown tool got a result (isError or not) instead of a JSON-RPC error")
	default:
		cs["8.4"].Summary = fmt.Sprintf("tools/call no_such_tool got error %d %s", e.Code, clip(e.Message, 60))
	}

	seen = nil
	_, bad := rs.send(`this line is not JSON {`, "", &seen)
	m, ex = rs.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`, `5`, &seen)
	bad.Reply = "(see the replies below)"
	var parseErr map[string]json.RawMessage
	for _, msg := range seen {
		if e := errorOf(msg); e != nil && e.Code == -32700 {
			parseErr = msg
		}
	}
	if parseErr != nil {
		bad.Reply = marshal(parseErr)
	}
	keep("8.5", bad)
	keep("8.5", ex)
	switch {
	case m == nil:
		cs["8.5"].add(finding{warn: true, msg: "after a line that is not JSON the session ended: a ping got no answer (" + ex.Error + ")", ex: bad,
			detail: append([]string{"then -> ping: " + ex.Error}, tailLines("stderr", rs.stderr.String())...)})
	case parseErr == nil:
		cs["8.5"].warnOn(bad, "a line that is not JSON got no -32700 reply (the session lived on)")
	default:
		cs["8.5"].Summary = "a line that is not JSON got -32700 and a ping afterwards was answered"
	}
}

func tailLines(label, text string) []string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, label+": "+clip(l, 200))
		}
	}
	return out
}
