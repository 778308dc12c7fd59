package corpus

import (
	"strings"
	"testing"
)

// TestVocabularyHoldsNoPhrase keeps the vocabulary's promise: no word of
// the text starts with a word of [Planted] or [Absent], after case
// folding, so neither phrase can appear where it was not planted.
func TestVocabularyHoldsNoPhrase(t *testing.T) {
	for _, w := range append(append([]string{}, vocabulary...), rare...) {
		for _, f := range strings.Fields(Planted + " " + Absent) {
			if strings.HasPrefix(foldString(w), foldString(f)) {
				t.Errorf("vocabulary word %q starts with %q", w, f)
			}
		}
	}
}
