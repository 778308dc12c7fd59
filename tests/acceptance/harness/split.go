package harness

import (
	"encoding/json"
	"fmt"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

// maxSplit bounds the lines held while looking for a message split over
// several stdout lines.
const maxSplit = 64 << 10

// splitLines gathers consecutive stdout lines that are not JSON-RPC
// messages, to tell a message pretty-printed over several lines (which
// no client reads: a message is one line) from a log line.
type splitLines struct {
	buf        []byte
	first      []string // the first two lines, for evidence
	from, to   int      // stdout line numbers
	violations int      // violations recorded for these lines
}

func (s *splitLines) reset() { *s = splitLines{} }

func (s *splitLines) add(line []byte, n int) {
	if len(s.buf)+len(line) > maxSplit {
		s.reset()
	}
	if len(s.buf) == 0 {
		s.from = n
	}
	s.to = n
	s.buf = append(s.buf, line...)
	if len(s.first) < 2 {
		s.first = append(s.first, visible.Truncate(string(trimEOL(line)), 120))
	}
	s.violations++
}

// message says, when the lines gathered so far make one JSON-RPC
// message, what the report quotes, and starts over.
func (s *splitLines) message() (msg string, lines int, ok bool) {
	if s.from == s.to {
		return "", 0, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(s.buf, &m) != nil || string(m["jsonrpc"]) != `"2.0"` {
		return "", 0, false
	}
	msg = fmt.Sprintf(splitPrefix+"%d lines (stdout lines %d-%d, pretty-printed; a message is one line): %q, then %q", s.to-s.from+1, s.from, s.to, s.first[0], s.first[1])
	lines = s.violations
	s.reset()
	return msg, lines, true
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// joinViolations replaces the violations of the lines of one split
// message, still the last ones recorded when they fit, with one that
// says what they were. The count of bad lines stays.
func (t *stdoutTap) joinViolations(msg string, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n <= len(t.violations) && len(t.violations) == t.badLines {
		t.violations = append(t.violations[:len(t.violations)-n], msg)
		return
	}
	if len(t.violations) < maxViolations {
		t.violations = append(t.violations, msg)
	}
}

// splitPrefix starts the violation of a message split over lines.
const splitPrefix = "a JSON-RPC message split over "

// splitSeen reports whether stdout carried a message split over lines.
func (t *stdoutTap) splitSeen() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, v := range t.violations {
		if strings.HasPrefix(v, splitPrefix) {
			return true
		}
	}
	return false
}
