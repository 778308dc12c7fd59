package truth

import "strings"

// Note is one file of the hard-case fixture.
type Note struct {
	Rel  string // root-relative, slash-separated
	Text string
}

// Probe is a query to send over the hard cases, and the defect a reply that
// differs from its true answer ([Ask] over a root holding [HardCases])
// shows.
type Probe struct {
	Query   string
	Catches string
}

// HardDir is the folder of the root the hard cases are planted in.
const HardDir = "hard"

// HardCases returns the notes that hold what servers get wrong, to plant
// under HardDir, and the queries that show it. Each note's text is built
// so that an error shows in the passage itself or in its line:
//
//   - line endings: a note written with CRLF throughout and one with mixed
//     LF and CRLF lines, whose paragraphs keep every CR;
//   - case folding that changes length: a paragraph of Kelvin, Ångström and
//     ohm signs (shorter in bytes once folded or lowercased) right above a
//     paragraph that starts with its marker, and one of İ, ß, ẞ and ﬁ
//     (longer in code points once lowercased or fully folded) right above
//     a paragraph that ends with its marker, so that a server slicing the
//     note at offsets taken from a folded copy returns the paragraph above
//     or below;
//   - folding that depends on the rune: ẞ and ß are one under simple
//     folding, İ and ı equal only themselves, ﬁ only itself, and σ, ς and
//     Σ are one wherever they stand in a word;
//   - separators other than LF inside a paragraph: U+2028, U+0085, a form
//     feed and a lone CR, each between two words of a phrase, and each
//     making a line of white space alone, which a reader may take for
//     blank: the whole paragraph and its part that holds the phrase are
//     both right, nothing else is;
//   - a phrase whose words are all in the root but never together: in
//     different notes, or in one paragraph apart and in the other order.
func HardCases() ([]Note, []Probe) {
	kelvin := strings.Repeat("300 \u212A, ", 20) + strings.Repeat("1 \u212B, ", 10) + strings.Repeat("5 \u2126, ", 10)
	grow := strings.Repeat("İ", 20) + " " + strings.Repeat("ß", 10) + " " + strings.Repeat("ﬁ", 10) + " " + strings.Repeat("ẞ", 5)
	notes := []Note{
		{"crlf-note.md", crlf("# A note written on Windows\n\n" +
			"The crlfmark paragraph spans three lines\nof a note whose every line ends\nwith a carriage return and a line feed.\n\n" +
			"A wrapped phrase: crlfwrap\nphrase goes on after the line break.\n")},
		{"mixed-endings.md", "# A note with mixed line endings\n\r\n" +
			"The mixedmark paragraph has a first line ending in LF\nthen a line ending in CRLF\r\nand a last line ending in LF.\n\n" +
			"A wrapped phrase: mixedwrap\r\nphrase goes on after a CRLF.\r\n"},
		{"fold-shrink.md", "# Units\n\n" +
			"Signs that fold to fewer bytes: " + kelvin + "and the \u212Aelvin scale.\n\n" +
			"shrinkmark opens this paragraph, right below the signs.\n\nThe last paragraph of the note.\n"},
		{"fold-grow.md", "# Letters\n\n" +
			"Letters that fold to more: " + grow + ".\n" +
			"STRAẞE, the ﬁnal ﬁle, İSTANBUL and Diyarbakır.\n\n" +
			"This paragraph, right below the letters, ends with growmark\n\n" +
			"The paragraph below it, long enough that a slice taken too far lands in it and not past the end of the note.\n"},
		{"greek.md", "# Greek words\n\n" +
			"Ο ΛΌΓΟΣ ΤΗΣ ΟΔΟΎ, the greekcaps paragraph, in capitals.\n\n" +
			"Ο λόγος της οδού, the greekfinal paragraph, with a final sigma.\n\n" +
			"Ο λόγοσ της οδού, the greekmedial paragraph, with the other sigma ending the word.\n"},
		{"separators.md", "# Separators inside paragraphs\n\n" +
			"The sepmark-ls paragraph: lsleft\u2028lsright, a line separator between them.\n\n" +
			"The sepmark-nel paragraph: nelleft\u0085nelright, a next-line character between them.\n\n" +
			"The sepmark-ff paragraph: ffleft\fffright, a form feed between them.\n\n" +
			"The sepmark-cr paragraph: crleft\rcrright, a lone carriage return between them.\n"},
		{"white-lines.md", "# Lines of white space inside paragraphs\n\n" +
			"The first part of the whitels paragraph.\u2028\u2028Its second part holds whitels-mark.\n\n" +
			"The first part of the whitenel paragraph.\u0085\u0085Its second part holds whitenel-mark.\n\n" +
			"The first part of the whiteff paragraph.\n\f\nIts second part holds whiteff-mark.\n\n" +
			"The first part of the whitecr paragraph.\r\rIts second part holds whitecr-mark.\n"},
		{"words-a.md", "# Animals\n\nA quokka smiled at the camera.\n"},
		{"words-b.md", "# Floors\n\nThe hall had a tessellated floor.\n"},
		{"words-c.md", "# Sweets\n\nThe shop sold marzipan.\n"},
		{"words-d.md", "# Harbour\n\nA walrus slept on the pier under an old ship's lantern.\n"},
	}
	for i := range notes {
		notes[i].Rel = HardDir + "/" + notes[i].Rel
	}
	probes := []Probe{
		{"crlfmark", "a CRLF paragraph returned without its CRs (lines split at LF, text-mode reads)"},
		{"crlfwrap phrase", "a phrase wrapped over a CRLF line break not found, or returned without the CR"},
		{"mixedmark", "mixed line endings normalised to one kind"},
		{"mixedwrap phrase", "a phrase wrapped over a CRLF not found in a note of mixed endings"},
		{"shrinkmark", "a passage sliced at offsets of a folded copy that is shorter (the paragraph or line above)"},
		{"KELVIN SCALE", "the Kelvin sign U+212A not folded with k (grep -i, byte-wise folding)"},
		{"growmark", "a passage sliced at offsets of a folded copy that is longer (the paragraph or line below)"},
		{"straße", "ẞ not folded with ß"},
		{"strasse", "(room) full case folding finds Straße; simple folding does not"},
		{"final file", "(room) full case folding finds the ligature ﬁ; simple folding does not"},
		{"ﬁnal ﬁle", "the ligature ﬁ not matched as itself"},
		{"istanbul", "İ folded with i (Turkish rules, stripped diacritics): the truth has no hit"},
		{"diyarbakir", "ı folded with i: the truth has no hit"},
		{"İstanbul", "İ not matched as itself in capitals"},
		{"λόγος της", "σ and ς not folded together (lowercasing instead of folding)"},
		{"ΛΌΓΟΣ ΤΗΣ", "capital Σ lowercased by its context instead of folded"},
		{"sepmark-ls", "U+2028 taken for a line break and the paragraph rewritten"},
		{"sepmark-nel", "U+0085 taken for a line break and the paragraph rewritten"},
		{"sepmark-ff", "a form feed taken for a line break and the paragraph rewritten"},
		{"sepmark-cr", "a lone CR turned into LF (Python's universal newlines) or taken for a line break"},
		{"lsleft lsright", "(room) U+2028 between a phrase's words"},
		{"nelleft nelright", "(room) U+0085 between a phrase's words"},
		{"ffleft ffright", "a form feed between a phrase's words not taken for white space"},
		{"crleft crright", "a lone CR between a phrase's words not taken for white space"},
		{"whitels-mark", "(room) two U+2028 end the paragraph or not; its first part alone, or a separator rewritten, is wrong"},
		{"whitenel-mark", "(room) two U+0085 end the paragraph or not; its first part alone, or a separator rewritten, is wrong"},
		{"whiteff-mark", "(room) a line of a form feed ends the paragraph or not; its first part alone, or the form feed dropped, is wrong"},
		{"whitecr-mark", "(room) two lone CRs end the paragraph or not; its first part alone, or a CR turned into LF, is wrong"},
		{"quokka tessellated", "the words of a phrase matched one by one (any word): the truth has no hit"},
		{"quokka tessellated marzipan", "the words of a phrase matched one by one (any word): the truth has no hit"},
		{"lantern walrus", "the words of a phrase matched anywhere in one paragraph: the truth has no hit"},
		{"quokka", "one of the phrase's words alone, found"},
		{"walrus", "one of the phrase's words alone, found"},
	}
	return notes, probes
}

// crlf turns every LF of s into CRLF.
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
