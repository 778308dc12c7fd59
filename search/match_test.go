package search

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// found is a passage as text, for readable diffs.
type found struct {
	Line    int
	NoteID  string
	Passage string
	Clipped bool
}

func findText(t *testing.T, text, query string, max int) ([]found, bool) {
	t.Helper()
	q, err := ParseQuery(query)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", query, err)
	}
	ps, more := findPassages([]byte(text), false, q, max)
	out := []found{}
	for _, p := range ps {
		out = append(out, found{p.Line, p.NoteID, text[p.Start:p.End], p.Clipped})
	}
	return out, more
}

func TestFind(t *testing.T) {
	const notes = "# Notes\n\n## N1 · First\n\nThe Sign-In page loads.\nA second line.\n\n## N2 · Second\n\nNothing about it here.\n"
	tests := []struct {
		name, text, query string
		want              []found
	}{
		{"case-insensitive ASCII", notes, "sign-in",
			[]found{{5, "N1", "The Sign-In page loads.\nA second line.", false}}},
		{"surrounding whitespace trimmed", notes, "  SIGN-IN\u00a0", []found{{5, "N1", "The Sign-In page loads.\nA second line.", false}}},
		{"absent", notes, "sign-out", []found{}},
		{"heading is its own paragraph", notes, "second",
			[]found{{6, "N1", "The Sign-In page loads.\nA second line.", false}, {8, "N2", "## N2 · Second", false}}},
		{"no match across heading and paragraph", "## N1 · Login\nhelp text\n", "login help", []found{}},
		{"non-ASCII fold", "café au lait\n", "CAFÉ", []found{{1, "", "café au lait", false}}},
		{"non-ASCII fold reverse", "CAFÉ\n", "café", []found{{1, "", "CAFÉ", false}}},
		{"Kelvin sign in text", "200 \u212Aelvin\n", "kelvin", []found{{1, "", "200 \u212Aelvin", false}}},
		{"Kelvin sign in query", "200 kelvin\n", "\u212Aelvin", []found{{1, "", "200 kelvin", false}}},
		{"long s", "Cla\u017Fs notes\n", "CLASS", []found{{1, "", "Cla\u017Fs notes", false}}},
		{"dotted capital I has no simple fold", "İstanbul\n", "istanbul", []found{}},
		{"dotted capital I matches itself", "an İstanbul trip\n", "İSTANBUL", []found{{1, "", "an İstanbul trip", false}}},
		{"sharp s folds to capital sharp s", "STRAẞE\n", "straße", []found{{1, "", "STRAẞE", false}}},
		{"sharp s is not ss", "strasse\n", "straße", []found{}},
		{"wrapped across one line break", "walk the release\n  checklist now\n", "release checklist",
			[]found{{1, "", "walk the release\n  checklist now", false}}},
		{"wrapped with CRLF", "walk the release\r\nchecklist now\r\n", "release checklist",
			[]found{{1, "", "walk the release\r\nchecklist now", false}}},
		{"tabs and spaces match a space", "release \t checklist\n", "release checklist",
			[]found{{1, "", "release \t checklist", false}}},
		{"query whitespace run is one gap", "release checklist\n", "release \u00a0  checklist",
			[]found{{1, "", "release checklist", false}}},
		{"never across a blank line", "release\n\nchecklist\n", "release checklist", []found{}},
		{"never across a whitespace-only line", "release\n \t\nchecklist\n", "release checklist", []found{}},
		{"gap needs whitespace", "releasechecklist\n", "release checklist", []found{}},
		{"one passage per paragraph", "tea, tea\nand more tea\n\ntea again\n", "tea",
			[]found{{1, "", "tea, tea\nand more tea", false}, {4, "", "tea again", false}}},
		{"line of the match, not the paragraph", "first line\nsecond tea line\n", "tea",
			[]found{{2, "", "first line\nsecond tea line", false}}},
		{"front matter id", "---\ntitle: x\nid: FM-1\n---\n\nsome tea\n", "tea",
			[]found{{6, "FM-1", "some tea", false}}},
		{"heading id beats front matter", "---\nid: FM-1\n---\n## N9 · T\n\ntea\n", "tea",
			[]found{{6, "N9", "tea", false}}},
		{"unclosed front matter is not front matter", "---\nid: FM-1\n\ntea\n", "tea",
			[]found{{4, "", "tea", false}}},
		{"heading without id keeps the earlier id", "## N3 · A\n\n### Details\n\ntea\n", "tea",
			[]found{{5, "N3", "tea", false}}},
		{"id token rules", "## N12x · no\n\ntea\n\n## ADR-7: yes\n\ntea\n", "tea",
			[]found{{3, "", "tea", false}, {7, "ADR-7", "tea", false}}},
		{"not a heading without a space", "#N1 tea\n", "tea", []found{{1, "", "#N1 tea", false}}},
		{"phrase inside a word", "signal\n", "sign", []found{{1, "", "signal", false}}},
		{"NBSP in the note matches a space", "alpha\u00a0beta\n", "alpha beta",
			[]found{{1, "", "alpha\u00a0beta", false}}},
		{"NBSP in the query and the note", "alpha\u00a0beta\n", "alpha\u00a0beta",
			[]found{{1, "", "alpha\u00a0beta", false}}},
		{"ideographic space", "alpha\u3000beta\n", "alpha beta",
			[]found{{1, "", "alpha\u3000beta", false}}},
		{"line separator", "alpha\u2028beta\n", "alpha beta",
			[]found{{1, "", "alpha\u2028beta", false}}},
		{"a run of mixed white space", "alpha \u2009\u00a0\n\u3000beta\n", "alpha\u3000beta",
			[]found{{1, "", "alpha \u2009\u00a0\n\u3000beta", false}}},
		{"Unicode white space holds one line break at most", "alpha\u00a0\n\u00a0\nbeta\n", "alpha beta", []found{}},
		{"BOM before a heading", "\uFEFF# N1 · Title\nbody text\n", "body",
			[]found{{2, "N1", "body text", false}}},
		{"BOM before front matter", "\uFEFF---\nid: FM-3\n---\n\nbody text\n", "body",
			[]found{{5, "FM-3", "body text", false}}},
		{"BOM before a paragraph", "\uFEFFbody text\n", "body",
			[]found{{1, "", "body text", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, more := findText(t, tt.text, tt.query, MaxMatches)
			if diff := cmp.Diff(tt.want, got); diff != "" || more {
				t.Errorf("findPassages(%q) more=%v, mismatch (-want +got):\n%s", tt.query, more, diff)
			}
			for _, f := range got {
				if !strings.Contains(tt.text, f.Passage) {
					t.Errorf("passage %q is not in the text", f.Passage)
				}
			}
		})
	}
}

func TestFindLimit(t *testing.T) {
	text := strings.Repeat("tea\n\n", 12)
	got, more := findText(t, text, "tea", MaxMatches)
	if len(got) != MaxMatches || !more {
		t.Fatalf("got %d passages, more=%v; want %d, true", len(got), more, MaxMatches)
	}
	got, more = findText(t, strings.Repeat("tea\n\n", MaxMatches), "tea", MaxMatches)
	if len(got) != MaxMatches || more {
		t.Fatalf("exactly %d: got %d passages, more=%v", MaxMatches, len(got), more)
	}
}

func TestFindClipsLongParagraph(t *testing.T) {
	// Multi-byte runes on both sides make a cut inside a rune likely.
	pad := strings.Repeat("é word ", 300)
	text := "## N4 · Long\n\n" + pad + "the needle here " + pad + "\n"
	got, _ := findText(t, text, "needle", MaxMatches)
	if len(got) != 1 {
		t.Fatalf("got %d passages, want 1", len(got))
	}
	p := got[0]
	switch {
	case !p.Clipped:
		t.Error("passage not marked clipped")
	case len(p.Passage) > MaxPassage:
		t.Errorf("passage is %d bytes, limit %d", len(p.Passage), MaxPassage)
	case len(p.Passage) < MaxPassage-utf8.UTFMax:
		t.Errorf("passage is only %d bytes", len(p.Passage))
	case !utf8.ValidString(p.Passage):
		t.Error("passage cut inside a rune")
	case !strings.Contains(p.Passage, "the needle here"):
		t.Errorf("passage does not hold the match: %q", p.Passage)
	case !strings.Contains(text, p.Passage):
		t.Error("passage is not verbatim")
	case p.NoteID != "N4" || p.Line != 3:
		t.Errorf("NoteID, Line = %q, %d; want N4, 3", p.NoteID, p.Line)
	}
	short, _ := findText(t, "## N4\n\n"+strings.Repeat("a", MaxPassage-7)+" needle\n", "needle", 1)
	if len(short) != 1 || short[0].Clipped || len(short[0].Passage) != MaxPassage {
		t.Errorf("a paragraph of exactly %d bytes was clipped or cut: %+v", MaxPassage, short)
	}
}

func TestParseQuery(t *testing.T) {
	tests := []struct {
		query   string
		wantErr string // "" for accepted
	}{
		{"sign-in", ""},
		{strings.Repeat("é", MaxQueryLen), ""},
		{strings.Repeat("a", MaxQueryLen+1), "201 characters long"},
		{" " + strings.Repeat("a", MaxQueryLen), "201 characters long"},
		{"", "empty"},
		{"   \u00a0 ", "only whitespace"},
		{"a\x00b", "control character"},
		{"a\tb", "control character"},
		{"a\nb", "control character"},
		{"a\u0085b", "control character"},
		{"bad \xff utf8", "not valid UTF-8"},
	}
	for _, tt := range tests {
		q, err := ParseQuery(tt.query)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("ParseQuery(%q): %v", tt.query, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("ParseQuery(%q) = %v, %v; want error containing %q", tt.query, q, err, tt.wantErr)
		case tt.wantErr != "" && !errors.Is(err, errBadQuery):
			t.Errorf("ParseQuery(%q) error %v does not wrap errBadQuery", tt.query, err)
		}
	}
}
