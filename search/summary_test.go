package search

import (
	"testing"
	"time"
	"unicode/utf8"
)

// filterOf is the filter a note with text gets.
func filterOf(text string) filter {
	return newFilter(appendFolded(nil, []byte(text)))
}

func TestFilterKeepsEveryMatch(t *testing.T) {
	tests := []struct {
		name, text, query string
	}{
		{"case", "The Velvet LANTERN glows.", "velvet lantern"},
		{"kelvin sign", "a 5 \u212Aelvin drop", "5 kelvin"},
		{"long s", "the Cla\u017Fs of it", "class"},
		{"greek final sigma", "\u039F\u0394\u039F\u03A3 here", "\u03BF\u03B4\u03BF\u03C2"},
		{"run of spaces and tabs", "velvet \t  \t lantern", "velvet lantern"},
		{"one line break", "velvet\r\nlantern", "velvet lantern"},
		{"no-break space", "velvet\u00A0lantern", "velvet lantern"},
		{"ideographic space", "velvet\u3000lantern", "velvet lantern"},
		{"line separator", "velvet\u2028lantern", "velvet lantern"},
		{"query white space", "velvet lantern", "velvet\u00A0\u00A0 lantern"},
		{"byte-order mark", "\uFEFFvelvet lantern", "velvet lantern"},
		{"mark inside", "ab\uFEFFcd", "AB\uFEFFCD"},
		// The filter takes the query as the matcher folds it, leading
		// mark and all; a note's leading mark alone is not text.
		{"query starting with a mark", "ab \uFEFFcd", "\uFEFFcd"},
		{"note starting with two marks", "\uFEFF\uFEFFcd", "\uFEFFcd"},
		{"inside a word", "xxvelvetlanternsxx", "velvetlantern"},
		{"two bytes", "ab", "AB"},
		{"one rune", "\u00E9", "\u00C9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if p, _ := findPassages([]byte(tt.text), false, q, 1); len(p) == 0 {
				t.Fatalf("%q does not match %q: the case is wrong", tt.query, tt.text)
			}
			if !filterOf(tt.text).mayHold(q.gramBits()) {
				t.Errorf("the filter of %q says %q cannot match", tt.text, tt.query)
			}
		})
	}
}

// TestFilterRulesOut checks that a filter does say no, or it would be of
// no use.
func TestFilterRulesOut(t *testing.T) {
	f := filterOf("## N1 · Warm-up\n\nBreathe in for four counts.\n")
	for _, query := range []string{"velvet lantern", "quartz heron maintenance", "four beats"} {
		q, err := ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		if f.mayHold(q.gramBits()) {
			t.Errorf("the filter lets %q through", query)
		}
	}
}

// FuzzFilterKeepsMatches checks the one property summaries rest on: a text
// that holds a match of a query has every bit of that query in its filter.
func FuzzFilterKeepsMatches(f *testing.F) {
	for _, s := range [][2]string{
		{"Velvet\n lantern", "velvet lantern"},
		{"\u212A\u017F \u00A0x", "ks x"},
		{"\uFEFF# a\u2029b", "A B"},
		{"\u1E9E\u00DF", "\u00DF\u00DF"},
		{"x\u0345y", "X\u03B9Y"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, text, query string) {
		if !utf8.ValidString(text) {
			return // never read as a note
		}
		q, err := ParseQuery(query)
		if err != nil {
			return
		}
		if p, _ := findPassages([]byte(text), false, q, 1); len(p) == 0 {
			return
		}
		if !filterOf(text).mayHold(q.gramBits()) {
			t.Errorf("the filter of %q says %q cannot match", text, query)
		}
	})
}

// waitBuilt waits until sums has made every summary it was going to.
func waitBuilt(t testing.TB, sums *summaries) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		sums.mu.Lock()
		done := !sums.building && len(sums.pending) == 0
		sums.mu.Unlock()
		if done {
			return
		}
	}
	t.Fatal("summaries still being made after 10s")
}
