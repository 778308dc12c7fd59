package harness

import (
	"encoding/json"
	"io"
	"testing"
	"time"
)

// TestRawSessionWaitsForStart: the first answer of a protocol session may
// take as long as a server's start (StartTimeout); every later one only
// the request limit.
func TestRawSessionWaitsForStart(t *testing.T) {
	rs := &rawSession{stdin: io.Discard, msgs: make(chan rawLine, 1),
		timeout: 100 * time.Millisecond, startTimeout: 5 * time.Second}
	reply := `{"jsonrpc":"2.0","id":"init-1","result":{}}`
	go func() {
		time.Sleep(500 * time.Millisecond) // past the request limit
		var m map[string]json.RawMessage
		_ = json.Unmarshal([]byte(reply), &m)
		rs.msgs <- rawLine{line: reply, msg: m}
	}()
	if ex := rs.send("init", `{"jsonrpc":"2.0","id":"init-1","method":"initialize"}`, `"init-1"`); ex.Reply == "" {
		t.Fatalf("the first request, answered after 500 ms, got no answer: %s", ex.Error)
	}
	ex := rs.send("ping", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, `2`)
	if !ex.TimedOut || ex.Millis > 2000 {
		t.Errorf("a later request with no answer: timed out %v after %d ms, want the request limit of 100 ms", ex.TimedOut, ex.Millis)
	}
}
