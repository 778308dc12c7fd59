package truth

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// brief is what a test compares of a hit.
type brief struct {
	File string
	Text string
	Line int
	Room Room
}

func briefs(hits []Hit) []brief {
	out := []brief{}
	for _, h := range hits {
		out = append(out, brief{h.File, h.Text, h.Line, h.Room})
	}
	return out
}

func note(s string) Entry { return Entry{Kind: Regular, Data: []byte(s)} }

func TestAskMatching(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		query string
		want  []brief
	}{
		{"case folds", "# T\n\nThe Sign-In screen.\n", "sign-in",
			[]brief{{"a.md", "The Sign-In screen.", 3, 0}}},
		{"Kelvin sign folds with k", "The \u212Aelvin scale.\n", "kelvin SCALE",
			[]brief{{"a.md", "The \u212Aelvin scale.", 1, 0}}},
		{"capital sharp s folds with ß", "STRAẞE\n", "straße",
			[]brief{{"a.md", "STRAẞE", 1, 0}}},
		{"sigmas fold together", "λόγοσ and ΛΌΓΟΣ\n", "λόγος",
			[]brief{{"a.md", "λόγοσ and ΛΌΓΟΣ", 1, 0}}},
		{"dotted capital I is only itself", "İstanbul\n", "istanbul", []brief{}},
		{"dotless i is only itself", "Diyarbakır\n", "DIYARBAKIR", []brief{}},
		{"full folding only is room", "Straße\n", "strasse",
			[]brief{{"a.md", "Straße", 1, RoomFullFold}}},
		{"ligature only under full folding", "the ﬁle\n", "file",
			[]brief{{"a.md", "the ﬁle", 1, RoomFullFold}}},
		{"ligature as itself", "the ﬁle\n", "ﬁle",
			[]brief{{"a.md", "the ﬁle", 1, 0}}},
		{"white space runs match", "one  two\tthree\nfour\n", "two three four",
			[]brief{{"a.md", "one  two\tthree\nfour", 1, RoomWrap}}},
		{"CRLF is white space inside a paragraph", "one\r\ntwo\r\n\r\nnext\r\n", "one two",
			[]brief{{"a.md", "one\r\ntwo", 1, RoomWrap}}},
		{"a phrase never crosses a blank line", "one\n\ntwo\n", "one two", []brief{}},
		{"a phrase never crosses a blank line of spaces and CR", "one\n \r\ntwo\n", "one two", []brief{}},
		{"a phrase may need a gap", "onetwo\n", "one two", []brief{}},
		{"NBSP between words is room", "one\u00A0two\n", "one two",
			[]brief{{"a.md", "one\u00A0two", 1, RoomSpace}}},
		{"U+2028 between words is room", "one\u2028two\n", "one two",
			[]brief{{"a.md", "one\u2028two", 1, RoomSpace}}},
		{"form feed between words is white space", "one\ftwo\n", "one two",
			[]brief{{"a.md", "one\ftwo", 1, RoomWrap}}},
		{"lone CR between words is white space", "one\rtwo\n", "one two",
			[]brief{{"a.md", "one\rtwo", 1, RoomWrap}}},
		{"a line of a form feed is not blank, but room", "one\n\f\ntwo\n", "one two",
			[]brief{{"a.md", "one\n\f\ntwo", 1, RoomWhiteLine | RoomWrap}}},
		{"inside a word is room", "design info\n", "sign in",
			[]brief{{"a.md", "design info", 1, RoomInWord}}},
		{"a whole-word occurrence later needs no room", "design info\nthe sign in\n", "sign in",
			[]brief{{"a.md", "design info\nthe sign in", 1, 0}}},
		{"punctuation next to a word is a boundary", "(sign-in)\n", "sign-in",
			[]brief{{"a.md", "(sign-in)", 1, 0}}},
		{"one hit per paragraph", "alpha alpha\nalpha\n\nalpha\n", "ALPHA",
			[]brief{{"a.md", "alpha alpha\nalpha", 1, 0}, {"a.md", "alpha", 4, 0}}},
		{"a heading is a paragraph of its own", "# Alpha title\nalpha text\n", "alpha",
			[]brief{{"a.md", "# Alpha title", 1, 0}, {"a.md", "alpha text", 2, 0}}},
		{"no phrase across a heading", "# Alpha\nbeta\n", "alpha beta", []brief{}},
		{"the line is the first occurrence's", "x\ny alpha\nalpha\n", "alpha",
			[]brief{{"a.md", "x\ny alpha\nalpha", 2, 0}}},
		{"a byte-order mark is not text", "\uFEFFalpha\n", "alpha",
			[]brief{{"a.md", "alpha", 1, 0}}},
		{"words in order only", "beta alpha\n", "alpha beta", []brief{}},
		{"an invalid byte matches nothing", "al\xffpha alpha\n", "alpha",
			[]brief{{"a.md", "al\xffpha alpha", 1, RoomEncoding}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Ask(Tree{"a.md": note(tt.data)}, tt.query)
			if diff := cmp.Diff(tt.want, briefs(a.Hits)); diff != "" {
				t.Errorf("Ask(%q) over %q (-want +got):\n%s", tt.query, tt.data, diff)
			}
		})
	}
}

func TestAskFiles(t *testing.T) {
	text := "The marker phrase.\n"
	big := strings.Repeat("x", FileLimit-len(text)) + text
	tree := Tree{
		"a.md":                note(text),
		"b.txt":               note(text),
		"c.markdown":          note(text),
		"D.MD":                note(text),
		"e.csv":               note(text),
		"noext":               note(text),
		".hidden.md":          note(text),
		".obsidian/f.md":      note(text),
		".obsidian":           {Kind: Dir},
		"hard.md":             {Kind: Regular, Data: []byte(text), Links: 2},
		"locked.md":           {Kind: Regular, Data: []byte(text), Unreadable: true},
		"locked-unread.md":    {Kind: Regular, Unreadable: true},
		"limit.md":            {Kind: Regular, Data: []byte(big)},
		"si.md":               {Kind: Regular, Data: []byte(strings.Repeat("x", fileLimitSI) + text)},
		"over.md":             {Kind: Regular, Data: []byte(big + "x")},
		"binary.md":           {Kind: Regular, Data: []byte("\x00" + text)},
		"latin1.md":           {Kind: Regular, Data: []byte("caf\xe9 " + text)},
		"link.md":             {Kind: Symlink, Target: "a.md"},
		"linked":              {Kind: Symlink, Target: "/elsewhere"},
		"linked/g.md":         note(text),
		"pipe.md":             {Kind: FIFO},
		"folder.md":           {Kind: Dir},
		"folder.md/inner.md":  note(text),
		"deep/er/nested/h.md": note(text),
		"empty.md":            note(""),
	}
	a := Ask(tree, "MARKER PHRASE")
	got := map[string]Room{}
	for _, h := range a.Hits {
		got[h.File] = h.Room
	}
	want := map[string]Room{
		"a.md":                0,
		"b.txt":               RoomNoteExt,
		"c.markdown":          RoomNoteExt,
		"D.MD":                RoomNoteExt,
		"e.csv":               RoomOtherText,
		"noext":               RoomOtherText,
		".hidden.md":          RoomHidden,
		".obsidian/f.md":      RoomHidden,
		"hard.md":             RoomHardLink,
		"locked.md":           RoomUnreadable,
		"limit.md":            RoomSize,
		"si.md":               RoomSize,
		"latin1.md":           RoomEncoding,
		"folder.md/inner.md":  0,
		"deep/er/nested/h.md": 0,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rooms of the files hit (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"locked-unread.md"}, a.Unread); diff != "" {
		t.Errorf("Unread (-want +got):\n%s", diff)
	}
	var must []string
	for _, h := range a.Under(0) {
		must = append(must, h.File)
	}
	if diff := cmp.Diff([]string{"a.md", "deep/er/nested/h.md", "folder.md/inner.md"}, must); diff != "" {
		t.Errorf("Under(0) (-want +got):\n%s", diff)
	}
	if n := len(a.Under(AnyRoom)); n != len(want) {
		t.Errorf("Under(AnyRoom) has %d hits, want %d", n, len(want))
	}
}

func TestAskRefusal(t *testing.T) {
	long := strings.Repeat("a", MaxQuery)
	tests := []struct {
		query string
		want  Refusal
		hits  int
	}{
		{"marker", MustSearch, 1},
		{long, MustSearch, 0},
		{long + "a", MustRefuse, 0},
		{"  " + long + "  ", MayRefuse, 0},
		{strings.Repeat("é", MaxQuery), MayRefuse, 0},
		{strings.Repeat("é", MaxQuery+1), MustRefuse, 0},
		{"", MayRefuse, 0},
		{" \t ", MayRefuse, 0},
		{"mark\ter", MayRefuse, 0},
		{"marker\x00", MayRefuse, 0},
	}
	tree := Tree{"a.md": note("A marker.\n")}
	for _, tt := range tests {
		a := Ask(tree, tt.query)
		if a.Refusal != tt.want || len(a.Hits) != tt.hits {
			t.Errorf("Ask(%.20q…): refusal %d with %d hits, want %d with %d", tt.query, a.Refusal, len(a.Hits), tt.want, tt.hits)
		}
	}
}

func TestFind(t *testing.T) {
	a := Ask(Tree{"a.md": note("# Title\nThe marker line\r\nand the next.\n")}, "marker")
	tests := []struct {
		file, passage string
		ok            bool
	}{
		{"a.md", "The marker line\r\nand the next.", true},
		{"a.md", "> The marker line\r\n> and the next.", true},
		{"a.md", "# Title\nThe marker line\r\nand the next.", true}, // split at blank lines only
		{"a.md", "The marker line\nand the next.", false},
		{"b.md", "The marker line\r\nand the next.", false},
		{"a.md", "The marker line", false},
	}
	for _, tt := range tests {
		if _, ok := a.Find(tt.file, tt.passage); ok != tt.ok {
			t.Errorf("Find(%q, %q) = %v, want %v", tt.file, tt.passage, ok, tt.ok)
		}
	}
}

func TestRoomString(t *testing.T) {
	for r, want := range map[Room]string{0: "none", RoomHidden: "hidden", RoomNoteExt | RoomFullFold: "not named .md, only under full case folding"} {
		if got := r.String(); got != want {
			t.Errorf("Room(%d).String() = %q, want %q", r, got, want)
		}
	}
	if got := AnyRoom.String(); bitCount(AnyRoom) != 12 || !strings.HasPrefix(got, "not named .md, ") || !strings.HasSuffix(got, ", only with white space other than one space between its words") {
		t.Errorf("AnyRoom.String() = %q, want all twelve reasons", got)
	}
}
