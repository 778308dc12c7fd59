package generate

import (
	"math/rand/v2"
	"strings"
)

// words draws the random words of one set.
type words struct {
	rng  *rand.Rand
	used map[string]bool
}

func newWords(seed uint64) *words {
	return &words{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), used: map[string]bool{}}
}

// word returns a fresh lowercase word no other call of this set returned,
// so that a phrase made of them is only where the set puts it.
func (w *words) word() string {
	for {
		var b strings.Builder
		n := 7 + w.rng.IntN(4)
		for range n {
			b.WriteByte(byte('a' + w.rng.IntN(26)))
		}
		if s := b.String(); !w.used[s] {
			w.used[s] = true
			return s
		}
	}
}

// phrase returns two fresh words with a space between them.
func (w *words) phrase() string { return w.word() + " " + w.word() }

// filler returns a sentence of n fresh words.
func (w *words) filler(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = w.word()
	}
	return strings.Join(ws, " ")
}
