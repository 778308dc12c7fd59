package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"practice-notes/boundary/seam"
)

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

// Over HTTP each POST is answered on its own: two calls with one id, sent
// at once, each get their own result.
func TestHTTPReusedIDEachAnswered(t *testing.T) {
	endpoint := httpNotes(t)
	var wg sync.WaitGroup
	bodies := make([]string, 2)
	statuses := make([]int, 2)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], bodies[i] = postMessage(t, endpoint, callLine(55, "sign-in"))
		}()
	}
	wg.Wait()
	for i, body := range bodies {
		if statuses[i] != 200 || strings.Count(body, `"id":55,"result":`) != 1 || strings.Contains(body, `"error"`) {
			t.Errorf("POST %d: status %d, body %.300q; want one result for id 55", i, statuses[i], body)
		}
	}
}
