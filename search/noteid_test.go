package search

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestNoteIDRuleInDocs runs every example of the table in the "Note IDs"
// section of docs/protocol.md, so the stated rule and the code cannot
// drift apart: the note text of a row, then a blank line and a paragraph to
// find, must give that paragraph the row's ID.
func TestNoteIDRuleInDocs(t *testing.T) {
	rows := noteIDExamples(t, "../docs/protocol.md")
	if len(rows) < 20 {
		t.Fatalf("found %d examples in the Note IDs table; want the whole table", len(rows))
	}
	q, err := ParseQuery("zqx probe")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		text := row.text + "\n\nzqx probe\n"
		ps, _ := findPassages([]byte(text), false, q, MaxMatches)
		if len(ps) != 1 {
			t.Errorf("%q: %d passages; want the probe paragraph", row.text, len(ps))
			continue
		}
		if ps[0].NoteID != row.id {
			t.Errorf("%q: note ID %q; the table says %q", row.text, ps[0].NoteID, row.id)
		}
		// The fast matcher and the reference agree on it too.
		if ref, _ := referenceFind([]byte(text), q, MaxMatches); len(ref) != 1 || ref[0].NoteID != row.id {
			t.Errorf("%q: the reference gives %+v; the table says %q", row.text, ref, row.id)
		}
	}
}

type noteIDExample struct{ text, id string }

// noteIDExamples reads the table of the "## Note IDs" section: the first
// code span of each row's first cell is the note text (\n, \t and \uXXXX
// escapes as in Go), the second cell an ID in a code span or "none".
func noteIDExamples(t *testing.T, path string) []noteIDExample {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []noteIDExample
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Note IDs"
			continue
		}
		if !in || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 2 || strings.Contains(cells[0], "Note text before") {
			continue
		}
		text, ok := codeSpan(strings.TrimSpace(cells[0]))
		if !ok {
			t.Fatalf("row %q: the first cell does not start with a code span", line)
		}
		text, err := strconv.Unquote(`"` + strings.ReplaceAll(text, `"`, `\"`) + `"`)
		if err != nil {
			t.Fatalf("row %q: %v", line, err)
		}
		id := strings.TrimSpace(cells[1])
		if id == "none" {
			id = ""
		} else if id, ok = codeSpan(id); !ok {
			t.Fatalf("row %q: the ID is neither a code span nor none", line)
		}
		rows = append(rows, noteIDExample{text, id})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// codeSpan returns the content of the Markdown code span s starts with:
// a run of n backticks up to the next run of exactly n, without one space
// on each side when both are there.
func codeSpan(s string) (string, bool) {
	n := len(s) - len(strings.TrimLeft(s, "`"))
	if n == 0 {
		return "", false
	}
	delim := s[:n]
	for i := n; i < len(s); {
		j := strings.Index(s[i:], delim)
		if j < 0 {
			return "", false
		}
		j += i
		end := j + n
		if end < len(s) && s[end] == '`' {
			// A longer run: skip it whole.
			i = len(s) - len(strings.TrimLeft(s[end:], "`"))
			continue
		}
		body := s[n:j]
		if len(body) >= 2 && body[0] == ' ' && body[len(body)-1] == ' ' {
			body = body[1 : len(body)-1]
		}
		return body, true
	}
	return "", false
}
