package checks

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/diagnose"
	"practice-notes/tests/acceptance/truth"
)

// oneSearch plays a phase of one search of query over t, answered by f,
// and returns its reply with every diagnosis of it.
func oneSearch(t *testing.T, tree truth.Tree, query string, f fakeServer) (generatedReply, []diagnose.Diagnosis) {
	t.Helper()
	const step = "generated 1: test"
	g := &Generated{Seed: 7, Before: tree, Queries: map[string]string{step: query}, Changed: map[string]bool{}}
	g.AnswerGenerated()
	g.Exchanges = []Exchange{{Step: step, Reply: f.reply(tree, *g.Answers[step])}}
	replies, all := readGenerated(g)
	if len(replies) != 1 {
		t.Fatalf("%d replies read, want 1", len(replies))
	}
	gr := replies[0]
	return gr, gr.diagnoses(all)
}

// withOthers is tree with n notes that hold no match added.
func withOthers(n int, tree truth.Tree) truth.Tree {
	out := maps.Clone(tree)
	for i := range n {
		out[fmt.Sprintf("other-%02d.md", i)] = truth.Entry{Data: []byte(fmt.Sprintf("# Other %d\n\nNothing to see in note %d.\n", i, i))}
	}
	return out
}

func note(text string) truth.Entry { return truth.Entry{Data: []byte(text)} }

// lockedNote is a note no server can read.
var lockedNote = truth.Entry{Unreadable: true}

// notesOf lists a tree's notes as text, "unreadable" for one that is.
func notesOf(tree truth.Tree) map[string]string {
	out := map[string]string{}
	for n, e := range tree {
		out[n] = string(e.Data)
		if e.Unreadable && e.Data == nil {
			out[n] = "unreadable"
		}
	}
	return out
}

// TestShrinkKeepsWhatMatters: a case among many notes shrinks to the
// notes, and the paragraphs of them, that show its mistake, and the
// truth and the diagnosis over the shrunk case name the same mistake.
func TestShrinkKeepsWhatMatters(t *testing.T) {
	noFlush := fakeServer{hits: generatedMutants[1].f.hits}
	tests := []struct {
		name  string
		tree  truth.Tree
		query string
		f     fakeServer
		want  diagnose.Mistake
		kept  map[string]string
	}{
		{"the note whose last paragraph is missed, alone",
			withOthers(12, truth.Tree{
				"target.md": note("# Title\n\nFirst needle here.\n\nSome filler.\n\nLast needle there.\n"),
				"alone.md":  note("Alone needle, no final newline."),
			}), "needle", noFlush, diagnose.LastParagraph,
			map[string]string{"alone.md": "Alone needle, no final newline."}},
		{"the paragraph that lost its trailing white space, alone in its note",
			withOthers(6, truth.Tree{
				"trail.md": note("# T\n\nIntro words.\n\nA needle line  \nwith a tab\t\nend.\n\nOutro words.\n"),
			}), "needle", generatedMutants[4].f, diagnose.TrailingSpace,
			map[string]string{"trail.md": "A needle line  \nwith a tab\t\nend.\n\n"}},
		{"the unreadable note the search stopped at is kept, between a note found and one missed",
			withOthers(8, truth.Tree{
				"a.md":        note("needle one.\n"),
				"m-locked.md": lockedNote,
				"z.md":        note("needle two.\n"),
			}), "needle", generatedMutants[9].f, diagnose.AfterUnreadable,
			map[string]string{"a.md": "needle one.\n", "m-locked.md": "unreadable", "z.md": "needle two.\n"}},
		{"the copy the server kept is kept beside one it dropped",
			withOthers(8, truth.Tree{
				"one.md":   note("Shared needle paragraph.\n"),
				"three.md": note("Shared needle paragraph.\n"),
				"two.md":   note("Shared needle paragraph.\n"),
			}), "needle", generatedMutants[3].f, diagnose.SameText,
			map[string]string{"one.md": "Shared needle paragraph.\n", "two.md": "Shared needle paragraph.\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gr, ds := oneSearch(t, tt.tree, tt.query, tt.f)
			i := slices.IndexFunc(ds, func(d diagnose.Diagnosis) bool { return d.Mistake == tt.want })
			if i < 0 {
				t.Fatalf("the whole case is not diagnosed %q: %v", tt.want, ds)
			}
			c := gr.shrink(ds[i], ds)
			if diff := cmp.Diff(tt.kept, notesOf(c.root.Now)); diff != "" {
				t.Errorf("notes kept (-want +got):\n%s", diff)
			}
			if c.left != len(tt.tree)-len(tt.kept) {
				t.Errorf("left out %d notes, want %d", c.left, len(tt.tree)-len(tt.kept))
			}
			// The shrunk case, judged afresh, shows the same mistake.
			a := truth.Ask(c.root.Now, tt.query)
			r := compare(c.root.Now, gr.rd, &a)
			r.Shown = diagnose.Learn(c.root, []diagnose.Reply{r})
			var got []diagnose.Mistake
			for _, d := range classify(c.root, r) {
				got = append(got, d.Mistake)
			}
			if !slices.Contains(got, tt.want) {
				t.Errorf("the shrunk case is diagnosed %q, want %q among them", got, tt.want)
			}
		})
	}
}

// TestShrunkCasesHold: for every mistake of every fake server on three
// seeds, the shrunk case is smaller than the generated root and the
// truth and the diagnosis over it still name the mistake.
func TestShrunkCasesHold(t *testing.T) {
	for _, m := range generatedMutants[1:] {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			for seed := uint64(1); seed <= 3; seed++ {
				replies, all := readGenerated(playGenerated(generatedSets[seed], m.f))
				shrunk := 0
				for _, gr := range replies {
					ds := gr.diagnoses(all)
					for _, d := range ds {
						if gr.refused || diagnose.Limit(gr.query, false) != "" {
							continue
						}
						c := gr.shrink(d, ds)
						if _, ok := gr.judgeOn(c.root, d.Mistake, ds, c.elsewhere); !ok {
							t.Errorf("seed %d, %s: the shrunk case does not show %q", seed, gr.ex.Step, d.Mistake)
						}
						if n, full := len(noteNames(c.root)), len(noteNames(gr.root)); n >= full || c.left != full-n {
							t.Errorf("seed %d, %s, %q: %d of %d notes kept, %d said left out", seed, gr.ex.Step, d.Mistake, n, full, c.left)
						}
						shrunk++
					}
				}
				if shrunk == 0 && !strings.Contains(m.name, "UTF-16") {
					t.Errorf("seed %d: no case shrunk", seed)
				}
			}
		})
	}
}
