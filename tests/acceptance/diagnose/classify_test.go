package diagnose

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/truth"
)

func note(s string) truth.Entry { return truth.Entry{Kind: truth.Regular, Data: []byte(s)} }

// serve plays a server that returns the hits keep accepts, and judges its
// reply the way a check does: hits kept are found, the rest missed.
func serve(t truth.Tree, query string, keep func(truth.Hit) bool) Reply {
	a := truth.Ask(t, query)
	r := Reply{Query: query}
	for _, h := range a.Under(0) {
		if keep(h) {
			r.Found = append(r.Found, h)
			r.Strings = append(r.Strings, h.Text)
		} else {
			r.Missed = append(r.Missed, h)
		}
	}
	return r
}

func mistakes(ds []Diagnosis) []Mistake {
	out := []Mistake{}
	for _, d := range ds {
		out = append(out, d.Mistake)
	}
	return out
}

func TestClassifyMissing(t *testing.T) {
	three := "alpha one\n\nbeta\n\nalpha two\n\nalpha three"
	tests := []struct {
		name   string
		tree   truth.Tree
		before truth.Tree
		query  string
		keep   func(truth.Hit) bool
		want   []Mistake
	}{
		{"all found", truth.Tree{"a.md": note(three)}, nil, "alpha",
			func(truth.Hit) bool { return true }, []Mistake{}},
		{"last paragraph", truth.Tree{"a.md": note(three), "b.md": note("alpha alone")}, nil, "alpha",
			func(h truth.Hit) bool { return !strings.Contains(h.Text, "three") && h.File != "b.md" }, []Mistake{LastParagraph}},
		{"first passage only", truth.Tree{"a.md": note(three), "b.md": note("alpha alone")}, nil, "alpha",
			func(h truth.Hit) bool { return h.Text == "alpha one" || h.File == "b.md" }, []Mistake{LaterPassages}},
		{"after an unreadable note", truth.Tree{"a.md": note("alpha"), "m.md": {Kind: truth.Regular, Unreadable: true}, "z.md": note("alpha")}, nil, "alpha",
			func(h truth.Hit) bool { return h.File == "a.md" }, []Mistake{AfterUnreadable}},
		{"after an unreadable note first in the walk", truth.Tree{"0.md": {Kind: truth.Regular, Unreadable: true}, "a.md": note("alpha\n\nmore"), "z.md": note("alpha\n\nmore")}, nil, "alpha",
			func(truth.Hit) bool { return false }, []Mistake{AfterUnreadable}},
		{"one-paragraph notes after a binary note first in the walk", truth.Tree{"0.md": note("x\x00y"), "a.md": note("alpha"), "z.md": note("alpha")}, nil, "alpha",
			func(truth.Hit) bool { return false }, []Mistake{LastParagraph}},
		{"an added note of one paragraph, no last paragraph found", truth.Tree{"a.md": note("alpha\n\nmore"), "b.md": note("alpha b")}, truth.Tree{"a.md": note("alpha\n\nmore")}, "alpha",
			func(h truth.Hit) bool { return h.File == "a.md" }, []Mistake{LastParagraph}},
		{"last paragraph followed by a blank line found", truth.Tree{"a.md": note("alpha one\n\nalpha two\n\n"), "b.md": note("x\n\nalpha three")}, nil, "alpha",
			func(h truth.Hit) bool { return h.File == "a.md" }, []Mistake{LastParagraph}},
		{"after a binary note", truth.Tree{"a.md": note("alpha"), "m.md": note("x\x00y"), "z.md": note("alpha")}, nil, "alpha",
			func(h truth.Hit) bool { return h.File == "a.md" }, []Mistake{AfterBinary}},
		{"walk order puts a folder before a file named like it", truth.Tree{"a/b.md": note("alpha"), "a.md": {Kind: truth.Regular, Unreadable: true}, "b.md": note("alpha")}, nil, "alpha",
			func(h truth.Hit) bool { return h.File == "a/b.md" }, []Mistake{AfterUnreadable}},
		{"subfolders", truth.Tree{"a.md": note("alpha"), "x/y/b.md": note("alpha")}, nil, "alpha",
			func(h truth.Hit) bool { return h.File == "a.md" }, []Mistake{Subfolders}},
		{"same text in another note", truth.Tree{"a.md": note("alpha"), "b.md": note("alpha"), "c.md": note("alpha")}, nil, "alpha",
			func(h truth.Hit) bool { return h.File == "b.md" }, []Mistake{SameText}},
		{"case fold", truth.Tree{"a.md": note("λόγοσ here\n\nmore")}, nil, "λόγος",
			func(truth.Hit) bool { return false }, []Mistake{CaseFold}},
		{"an ASCII-only fold", truth.Tree{"a.md": note("CRÈME here\n\nmore")}, nil, "crème",
			func(truth.Hit) bool { return false }, []Mistake{CaseFold}},
		{"case-sensitive", truth.Tree{"a.md": note("Alpha Beta here\n\nmore")}, nil, "alpha beta",
			func(truth.Hit) bool { return false }, []Mistake{CaseSensitive}},
		{"missed as written", truth.Tree{"a.md": note("alpha beta here\n\nmore")}, nil, "alpha beta",
			func(truth.Hit) bool { return false }, []Mistake{Missed}},
		{"root folder only", truth.Tree{"a.md": note("alpha"), "x/b.md": note("alpha"), "x/locked.md": {Kind: truth.Regular, Unreadable: true}, "y/c.md": note("alpha")}, nil, "alpha",
			func(h truth.Hit) bool { return h.File == "a.md" }, []Mistake{Subfolders}},
		{"added note", truth.Tree{"a.md": note("alpha"), "b.md": note("alpha")}, truth.Tree{"a.md": note("alpha")}, "alpha",
			func(h truth.Hit) bool { return h.File == "a.md" }, []Mistake{AddedNote}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := serve(tt.tree, tt.query, tt.keep)
			r.Shown = Learn(Root{Now: tt.tree}, []Reply{r})
			got := mistakes(Classify(Root{Now: tt.tree, Before: tt.before}, r))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Classify (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClassifyExtra(t *testing.T) {
	tree := truth.Tree{
		"blank.md": note("one\n\ntwo\n"),
		"apart.md": note("two then\n\none\n"),
		"big.md":   note(strings.Repeat("x ", truth.FileLimit/2) + "one two\n"),
		"none.md":  note("nothing\n"),
	}
	tests := []struct {
		file string
		want Mistake
	}{
		{"blank.md", AcrossBlank},
		{"apart.md", WordsApart},
		{"big.md", Oversized},
		{"none.md", Invented},
		{"gone.md", Invented},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := Classify(Root{Now: tree}, Reply{Query: "one two", Extra: []string{tt.file}})
			if diff := cmp.Diff([]Mistake{tt.want}, mistakes(got)); diff != "" {
				t.Errorf("Classify (-want +got):\n%s", diff)
			}
			if got[0].Hint == "" {
				t.Errorf("diagnosis %q has no hint", got[0].Mistake)
			}
		})
	}
}

func TestPassage(t *testing.T) {
	tests := []struct {
		name, data, query, got string
		want                   Mistake
	}{
		{"CRs dropped", "one alpha\r\ntwo\r\n\r\nnext\r\n", "alpha", "one alpha\ntwo", CRsDropped},
		{"trailing spaces cut", "one alpha  \ntwo\t\n\nnext\n", "alpha", "one alpha\ntwo", TrailingSpace},
		{"trailing spaces and CRs cut", "one alpha  \r\ntwo\r\n", "alpha", "one alpha\ntwo", TrailingSpace},
		{"replacement character", "caf\xe9 alpha\n", "alpha", "caf\uFFFD alpha", Replacement},
		{"re-cased", "One ALPHA\n", "alpha", "one alpha", Recased},
		{"joined", "one alpha\n\nnext para\n", "alpha", "one alpha\n\nnext para", Joined},
		{"cut short", "first line\nalpha line\nlast line\n", "alpha", "alpha line", CutShort},
		{"other", "one alpha\n", "alpha", "something else", OtherBytes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree := truth.Tree{"a.md": note(tt.data)}
			a := truth.Ask(tree, tt.query)
			if len(a.Hits) == 0 {
				t.Fatalf("no hit for %q in %q", tt.query, tt.data)
			}
			got := Classify(Root{Now: tree}, Reply{Query: tt.query, Inexact: a.Hits[:1], Strings: []string{"results:", tt.got}})
			if diff := cmp.Diff([]Mistake{tt.want}, mistakes(got)); diff != "" {
				t.Errorf("Classify (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLimit(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		refused bool
		want    Mistake
	}{
		{"200 ASCII searched", strings.Repeat("a", 200), false, ""},
		{"200 ASCII refused", strings.Repeat("a", 200), true, LimitOffByOne},
		{"201 ASCII refused", strings.Repeat("a", 201), true, ""},
		{"201 ASCII searched", strings.Repeat("a", 201), false, LimitOffByOne},
		{"300 ASCII searched", strings.Repeat("a", 300), false, NoLimit},
		{"200 two-byte refused", strings.Repeat("é", 200), true, LimitBytes},
		{"200 two-byte searched", strings.Repeat("é", 200), false, ""},
		{"150 emoji refused", strings.Repeat("😀", 150), true, LimitUTF16},
		{"201 emoji refused", strings.Repeat("😀", 201), true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Limit(tt.query, tt.refused); got != tt.want {
				t.Errorf("Limit = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStaleText(t *testing.T) {
	before := truth.Tree{"a.md": note("the old alpha text\n\nkept alpha\n"), "gone.md": note("removed alpha note\n")}
	now := truth.Tree{"a.md": note("the new alpha text\n\nkept alpha\n")}
	root := Root{Now: now, Before: before}
	d, ok := StaleText(root, []string{"a.md: the old alpha text", "gone.md: removed alpha note"})
	if !ok || d.Mistake != Stale {
		t.Fatalf("StaleText = %v, %v; want Stale", d, ok)
	}
	slices.Sort(d.Files)
	if diff := cmp.Diff([]string{"a.md", "gone.md"}, d.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if _, ok := StaleText(root, []string{"kept alpha", "the new alpha text"}); ok {
		t.Errorf("text every note still holds was called stale")
	}
}

func TestRulesComplete(t *testing.T) {
	for m, r := range rules {
		if r.hint == "" && m != CaseSensitive {
			t.Errorf("%q has no hint", m)
		}
	}
}

// TestShownRulesOut: a miss one reply alone leaves open to a case fold or
// a dropped last paragraph is named by what the server's other replies
// show it does right.
func TestShownRulesOut(t *testing.T) {
	greek := "# Greek\n\nΟ λόγος της οδού.\n\nΟ λόγοσ της οδού.\n"
	tree := truth.Tree{"g.md": note(greek), "k.md": note("The \u017Fign here.\n\nlast \u017Fign here\n"), "p.md": note("plain one\n\nplain two\n")}
	root := Root{Now: tree}
	// The last paragraph of g.md is missed: under lowercasing it is not
	// found, and it is the note's last.
	miss := serve(tree, "λόγος της", func(h truth.Hit) bool { return !strings.Contains(h.Text, "λόγοσ") })
	folds := serve(tree, "sign here", func(h truth.Hit) bool { return !strings.HasPrefix(h.Text, "last") })
	flushes := serve(tree, "plain", func(h truth.Hit) bool { return strings.HasSuffix(h.Text, "two") })
	tests := []struct {
		name   string
		others []Reply
		want   Mistake
	}{
		{"nothing else known", nil, CaseFold},
		{"folds case elsewhere", []Reply{folds}, LastParagraph},
		{"finds last paragraphs elsewhere", []Reply{flushes}, CaseFold},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := miss
			r.Shown = Learn(root, append(tt.others, r))
			if diff := cmp.Diff([]Mistake{tt.want}, mistakes(Classify(root, r))); diff != "" {
				t.Errorf("Classify (-want +got):\n%s", diff)
			}
		})
	}
}
