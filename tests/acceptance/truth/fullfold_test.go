package truth

import (
	"testing"
	"unicode/utf8"
)

func TestFullFolds(t *testing.T) {
	for r, s := range fullFolds {
		if utf8.RuneCountInString(s) < 2 {
			t.Errorf("full folding of %U is %q: not several runes", r, s)
		}
	}
	for r, want := range map[rune]string{'ß': "ss", 'ẞ': "ss", 'ﬁ': "fi", 'İ': "i\u0307", 'ŉ': "ʼn", 'ΐ': "ι\u0308\u0301"} {
		if got := fullFolds[r]; got != want {
			t.Errorf("full folding of %U = %q, want %q", r, got, want)
		}
	}
	if len(fullFolds) != 104 {
		t.Errorf("%d full foldings, want Unicode 14.0's 104", len(fullFolds))
	}
}
