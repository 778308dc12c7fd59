package checks

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFoldedMasksAsMaskFold masks texts line after line both ways, with
// folded and with maskFold lowering the text again for every line, over
// pieces whose lower case is longer, shorter or not UTF-8: the texts left
// are the same.
func TestFoldedMasksAsMaskFold(t *testing.T) {
	pieces := []string{"Password reset ", "PASSWORD RESET", "password reset", "İstanbul ", "istanbul", "\u212Aelvin ",
		"kelvin", "Ⱥ grows ", "ⱥ", "Straße ", "STRASSE", "\xff\xfe bytes ", "café Crème ", "CAFÉ CRÈME", "\x00", "\n", " "}
	for seed := range 400 {
		r := rand.New(rand.NewPCG(uint64(seed), 46))
		build := func(n int) string {
			var b strings.Builder
			for range n {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			return b.String()
		}
		text := build(2 + r.IntN(30))
		var subs []string
		for range 1 + r.IntN(6) {
			s := build(1 + r.IntN(4))
			if r.IntN(2) == 0 && len(text) > 0 {
				// A cut of the text itself, re-cased.
				i := r.IntN(len(text))
				s = strings.ToUpper(text[i:min(len(text), i+16+r.IntN(20))])
			}
			subs = append(subs, s)
		}
		want, f := text, newFolded(text)
		for _, s := range subs {
			want = maskFold(want, s)
			f.maskFold(s)
		}
		if d := cmp.Diff(want, f.text); d != "" {
			t.Fatalf("text %q, lines %q: folded differs from maskFold (-maskFold +folded):\n%s", text, subs, d)
		}
		if f.inStep && f.low != strings.ToLower(f.text) {
			t.Fatalf("text %q, lines %q: the lower case %q is not that of %q", text, subs, f.low, f.text)
		}
	}
}
