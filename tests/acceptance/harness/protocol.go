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

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/sandbox"
)

// rawSession speaks JSON-RPC lines to a server directly, without the SDK
// client, so that the protocol checks can send what a client library never
// would: string ids, unknown methods, a line that is not JSON.
type rawSession struct {
	cmd     *exec.Cmd
	stdin   interface{ Write([]byte) (int, error) }
	closeIn func() error
	msgs    chan rawLine
	stderr  *capBuffer
	done    chan struct{}
	timeout time.Duration
	// startTimeout bounds the wait for the first answer, which comes only
	// once the server has started (go run, npx and interpreters behind
	// version-manager shims take seconds of it on a loaded machine).
	startTimeout time.Duration
	answered     bool
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
	rs := &rawSession{cmd: cmd, stdin: in, closeIn: in.Close, msgs: make(chan rawLine, 64),
		stderr: &capBuffer{max: outputCap}, done: make(chan struct{}), timeout: r.cfg.Timeout,
		startTimeout: max(r.cfg.StartTimeout, r.cfg.Timeout)}
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
					rs.msgs <- rawLine{line: strings.TrimSuffix(string(line), "\n"), msg: m}
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

// rawLine is one JSON-RPC message read from stdout, as it came and parsed.
type rawLine struct {
	line string
	msg  map[string]json.RawMessage
}

// send writes one line and waits for the reply with the given id (the raw
// JSON of the id); id "" waits for nothing. It returns the exchange as the
// report shows it and the checks' judges read it.
func (rs *rawSession) send(step, line, id string) *checks.Exchange {
	ex := &checks.Exchange{Step: step, In: line, Check: "8.x", Method: methodOf(line), Request: line}
	t0 := time.Now()
	if _, err := rs.stdin.Write([]byte(line + "\n")); err != nil {
		ex.Error = "could not write: " + err.Error()
		return ex
	}
	if id == "" {
		return ex
	}
	limit := rs.timeout
	if !rs.answered {
		limit = rs.startTimeout
	}
	deadline := time.After(limit)
	for {
		select {
		case m, ok := <-rs.msgs:
			if !ok {
				ex.Millis = time.Since(t0).Milliseconds()
				ex.Error = "the server closed stdout (exited) without answering"
				return ex
			}
			ex.Out = append(ex.Out, m.line)
			rs.answered = true
			if string(m.msg["id"]) == id {
				ex.Millis = time.Since(t0).Milliseconds()
				ex.Decoded = marshal(m.msg)
				ex.Reply = m.line
				return ex
			}
		case <-deadline:
			ex.Millis = time.Since(t0).Milliseconds()
			ex.Error = fmt.Sprintf("no answer within %s", limit)
			ex.TimedOut = true
			return ex
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

// rawWire is the protocol checks' Wire: it keeps each exchange for the
// report (shown, by step) and, as it was when it came back, for the
// judges (recorded).
type rawWire struct {
	rs       *rawSession
	shown    map[string]*checks.Exchange
	recorded []checks.Exchange
	// unanswered is the last line sent without waiting: the report shows
	// the parse error it drew, read while waiting for the next reply.
	unanswered *checks.Exchange
}

func (w *rawWire) Send(step, line, id string) checks.Exchange {
	ex := w.rs.send(step, line, id)
	if w.unanswered != nil && id != "" {
		w.unanswered.Decoded = "(see the replies below)"
		if pe := checks.ParseError(ex.Out); pe != "" {
			var m map[string]json.RawMessage
			_ = json.Unmarshal([]byte(pe), &m)
			w.unanswered.Decoded = marshal(m)
		}
		w.unanswered = nil
	}
	if id == "" {
		w.unanswered = ex
	}
	w.shown[step] = ex
	w.recorded = append(w.recorded, *ex)
	return *ex
}

// protocolChecks runs checks 8.1-8.7 in one raw session: they are
// warnings, since the SDK client of check 8 copes without them.
func (r *runner) protocolChecks(ctx context.Context, list []*checks.Check) {
	if r.unreadable != "" {
		return // not graded: no client reads the server's replies
	}
	if r.notRun != "" {
		for _, def := range list {
			r.checks[def.ID].skip("%s", r.notRun)
		}
		return
	}
	if r.notStarted != "" {
		for _, def := range list {
			r.checks[def.ID].add(checks.Finding{Msg: "server did not start; see check " + r.notStarted, Hint: "Make the server start and answer initialize (see check " + r.notStarted + ")."})
		}
		return
	}
	first := r.checks[list[0].ID]
	home, tmp, err := r.processDirs("8.x")
	if err != nil {
		first.fail("preparing HOME and TMPDIR: %v", err)
		return
	}
	defer r.checkLeftovers("8.x", home, tmp)
	rs, err := r.startRaw(home, tmp)
	if err != nil {
		for _, def := range list {
			r.checks[def.ID].fail("%v", err)
		}
		return
	}
	r.rep.Processes++
	defer rs.stop(r.cfg.ExitTimeout)
	w := &rawWire{rs: rs, shown: map[string]*checks.Exchange{}}
	facts := &checks.Facts{}
	for _, def := range checks.ProtocolSession() {
		if !def.Probe(w, facts) {
			break
		}
	}
	facts.Exchanges, facts.Stderr = w.recorded, rs.stderr.String()
	r.transcribe(list, facts)
	for _, def := range list {
		r.apply(r.checks[def.ID], def.JudgeOn(facts), w.shown)
	}
}

// judge runs the judge of c's check on facts that hold no exchanges, and
// files its verdict.
func (r *runner) judge(c *CheckResult, facts *checks.Facts) {
	r.transcribe([]*checks.Check{c.def}, facts)
	r.apply(c, c.def.JudgeOn(facts), nil)
}

// apply files a judge's verdict under its check.
func (r *runner) apply(c *CheckResult, v checks.Verdict, shown map[string]*checks.Exchange) {
	for _, step := range v.Filed {
		if ex := shown[step]; ex != nil {
			ex.Check = c.ID
			c.Exchanges = append(c.Exchanges, ex)
		}
	}
	for _, f := range v.Findings {
		// A finding the judge charges to another check's rule goes there.
		to := c
		if f.Owner != nil && r.checks[f.Owner.ID] != nil {
			to = r.checks[f.Owner.ID]
		}
		f.Exchange = shown[f.Step]
		to.add(f)
	}
	if v.Summary != "" {
		c.Summary = v.Summary
	}
	if v.Skip != "" {
		c.SkipReason = v.Skip
	}
	c.Notes = append(c.Notes, v.Notes...)
	c.Observed = append(c.Observed, v.Observed...)
	if v.Compared != nil {
		r.rep.N2 = v.Compared
	}
}
