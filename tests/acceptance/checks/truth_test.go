package checks

import (
	"strings"
	"testing"

	"practice-notes/tests/acceptance/truth"
)

// TestPhraseQueriesHoldOnlyApart: over the planted hard cases, each of
// check 11's phrase queries has no true hit while every one of its words
// has one, so a server matching words one by one names a note.
func TestPhraseQueriesHoldOnlyApart(t *testing.T) {
	notes, _ := truth.HardCases()
	tree := truth.Tree{}
	for _, n := range notes {
		tree[n.Rel] = truth.Entry{Kind: truth.Regular, Data: []byte(n.Text)}
	}
	for _, q := range phraseQueries {
		if a := truth.Ask(tree, q); len(a.Hits) != 0 {
			t.Errorf("%q has %d true hits, want none", q, len(a.Hits))
		}
		for _, w := range strings.Fields(q) {
			if a := truth.Ask(tree, w); len(required(&a)) == 0 {
				t.Errorf("word %q of %q has no true hit", w, q)
			}
		}
	}
}
