package truth

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"practice-notes/boundary"
	"practice-notes/search"
)

// Pieces of generated notes: words that fold in every way the rule names,
// white space of every kind, paragraph breaks and line starts.
var (
	genWords = []string{"alpha", "Alpha", "ALPHA", "beta", "BETA", "sign-in", "Sign-In", "\u212Aelvin", "kelvin",
		"straße", "STRAẞE", "strasse", "λόγος", "λόγοσ", "ΛΌΓΟΣ", "İstanbul", "istanbul", "ﬁle", "file",
		"design", "info", "alphabeta", "Σίσυφος", "ſtraſſe", "ǅemal", "ǆ", "Ǆ", "ι", "\u0345", "\u1FBE", "x\uFFFDy"}
	genSpaces = []string{" ", " ", " ", "  ", "\t", "\n", "\r\n", "\u00A0", "\u2028", "\u0085", "\f", "\r", "\v", " \n "}
	genBreaks = []string{"\n\n", "\r\n\r\n", "\n \n", "\n\t\r\n", "\n\f\n", "\n# ", "\n## heading\n", "\n> ", "\n- ",
		"\n   # ", "\n####### ", "\n#\t", "\n#\n", "\n\r\r\n", "\n\r", "\r\n \r\n"}
	genNames = []string{"a.md", "b.txt", "c.markdown", "sub/d.md", ".h.md", "e.csv", "F.MD"}
	genQuery = []string{"alpha", "beta", "kelvin", "KELVIN", "strasse", "straße", "λόγος", "ΛΌΓΟΣ", "σίσυφοσ",
		"istanbul", "İSTANBUL", "file", "ﬁle", "sign-in", "sign in", "design info", "in", "dž", "ΙΙ", "s", "\uFFFD"}
)

func genNote(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(8) == 0 {
		b.WriteString(bom)
	}
	if r.IntN(4) == 0 {
		b.WriteString("# ")
	}
	n := 1 + r.IntN(30)
	if r.IntN(10) == 0 {
		n = 300 // long paragraphs, more than ten hits
	}
	for i := range n {
		b.WriteString(genWords[r.IntN(len(genWords))])
		switch {
		case i == n-1:
			if r.IntN(2) == 0 {
				b.WriteString("\n")
			}
		case r.IntN(6) == 0:
			b.WriteString(genBreaks[r.IntN(len(genBreaks))])
		default:
			b.WriteString(genSpaces[r.IntN(len(genSpaces))])
		}
	}
	return b.String()
}

// genPhrase returns a phrase of the query words, or, half the time, a run
// of one to three words of one of the notes, re-cased.
func genPhrase(r *rand.Rand, notes []string) string {
	if r.IntN(2) == 0 {
		words := strings.FieldsFunc(notes[r.IntN(len(notes))], unicode.IsSpace)
		if len(words) > 0 {
			i := r.IntN(len(words))
			phrase := strings.Join(words[i:min(len(words), i+1+r.IntN(3))], " ")
			switch r.IntN(3) {
			case 0:
				return strings.ToUpper(phrase)
			case 1:
				return strings.ToLower(phrase)
			}
			return phrase
		}
	}
	words := make([]string, 1+r.IntN(3))
	for i := range words {
		words[i] = genQuery[r.IntN(len(genQuery))]
	}
	return strings.Join(words, " ")
}

// TestGeneratedAgainstSearch compares this repository's search, with and
// without summaries, with the truth on generated roots: notes built from
// words that fold in every way, every kind of white space and line break,
// headings, byte-order marks, under names of every kind, searched for
// phrases of those words.
func TestGeneratedAgainstSearch(t *testing.T) {
	cases := 150
	if testing.Short() {
		cases = 30
	}
	for seed := range cases {
		r := rand.New(rand.NewPCG(uint64(seed), 28))
		dir := filepath.Join(t.TempDir(), "root")
		files := map[string]string{}
		var notes []string
		for range 1 + r.IntN(3) {
			n := genNote(r)
			files[genNames[r.IntN(len(genNames))]] = n
			notes = append(notes, n)
		}
		plant(t, dir, files)
		tree, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		root, err := boundary.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		for range 6 {
			q := genPhrase(r, notes)
			t.Run("", func(t *testing.T) {
				compareWithSearch(t, root, search.Options{Summaries: seed%2 == 1}, tree, q)
				if t.Failed() {
					t.Logf("seed %d, notes %q", seed, files)
				}
			})
		}
		root.Close()
	}
}
