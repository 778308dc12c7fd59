package truth

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// TestAskerAnswersAsAsk asks one Asker many queries over generated notes:
// each answer is the one Ask gives alone, whatever was asked before it and
// whatever was done to the answers before it.
func TestAskerAnswersAsAsk(t *testing.T) {
	allFields := cmp.AllowUnexported(Hit{}, occurrence{})
	for seed := range 200 {
		r := rand.New(rand.NewPCG(uint64(seed), 46))
		tree := Tree{}
		var notes []string
		for range 1 + r.IntN(4) {
			n := genNote(r)
			tree[genNames[r.IntN(len(genNames))]] = Entry{Kind: Regular, Data: []byte(n)}
			notes = append(notes, n)
		}
		k := NewAsker(tree)
		for range 8 {
			q := genPhrase(r, notes)
			got := k.Ask(q)
			if d := cmp.Diff(Ask(tree, q), got, allFields); d != "" {
				t.Fatalf("seed %d, query %q: the shared Asker's answer differs from Ask's (-Ask +Asker):\n%s", seed, q, d)
			}
			for _, h := range got.Hits {
				// A caller that changes a hit's forms changes no later
				// answer.
				for i := range h.Forms {
					h.Forms[i] = "changed"
				}
			}
		}
	}
}

// TestFoldShortcuts checks the shortcuts matching takes: ASCII folds to
// the smallest rune of its orbit, and a text without a rune that full
// folding expands has the same units under both foldings.
func TestFoldShortcuts(t *testing.T) {
	for r := rune(0); r < 0x80; r++ {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		if got := simpleFold(r); got != least {
			t.Errorf("simpleFold(%q) = %q, want %q", r, got, least)
		}
	}
	texts := slices.Concat(genWords, genSpaces, genBreaks, genQuery, []string{"plain ascii text", "caf\xe9 not UTF-8"})
	for _, text := range texts {
		b := []byte(text)
		same := slices.Equal(units(b, false), units(b, true))
		if same == folds(b) {
			t.Errorf("%q: folds says %v, but the units under both foldings are equal: %v", text, folds(b), same)
		}
	}
}
