// Package corpus generates deterministic, fictional Markdown notes for
// benchmarks: `## N123 · Title` headings followed by wrapped paragraphs,
// with a known phrase planted in exactly K files (in varied capitalisation,
// sometimes wrapped across a line break) and a phrase that is guaranteed to
// be absent. The same options and seed always give the same bytes.
//
// Every word of the text comes from a fixed vocabulary that contains none of
// the words of [Planted] or [Absent]; each generated file is also checked
// with a simple, independent matcher (case folding plus whitespace
// collapsing, which finds a superset of what the search engine finds), so a
// file that is not planted never holds the planted phrase and no file holds
// the absent one.
package corpus

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Planted is the phrase written into exactly K files, in one of
// [PlantedVariants] each.
const Planted = "amber signal drift"

// Absent is a phrase of common letters that no generated file contains.
const Absent = "velvet lantern"

// NonASCII is a phrase of vocabulary words with non-ASCII letters that
// appears, rarely, in generated text.
const NonASCII = "CAFÉ façade"

// PlantedVariants are the spellings of [Planted] used in turn.
var PlantedVariants = []string{
	"amber signal drift",
	"Amber Signal Drift",
	"AMBER SIGNAL DRIFT",
	"amber signal\ndrift", // wrapped inside its paragraph
	"aMbEr\tsIgNaL  dRiFt",
}

// Options describe a corpus.
type Options struct {
	Files int    // number of files
	Size  int    // bytes per file (exact)
	Seed  uint64 // random seed
	K     int    // number of files holding the planted phrase (≤ Files)
	// PerDir is how many notes go in one folder: 0 for the default (see
	// FileName), a negative number for all of them in the top folder.
	PerDir int
	// Age sets every note's modification time that far back, when not 0.
	Age time.Duration
}

// Info describes a generated corpus.
type Info struct {
	Files   []string // slash-separated names relative to the directory, in byte order
	Planted []string // the files holding the planted phrase
	Bytes   int64    // total size
}

// Generate writes a corpus into dir, which must not exist yet or be empty.
func Generate(dir string, opt Options) (*Info, error) {
	if opt.Files < 1 || opt.Size < 256 || opt.K < 0 || opt.K > opt.Files {
		return nil, fmt.Errorf("corpus: need files ≥ 1, size ≥ 256 and 0 ≤ k ≤ files; got %+v", opt)
	}
	planted := plantedSet(opt.Files, opt.K)
	info := &Info{}
	id := 1
	for i := range opt.Files {
		name := opt.fileName(i)
		v := -1
		if planted[i] >= 0 {
			v = planted[i]
			info.Planted = append(info.Planted, name)
		}
		rng := rand.New(rand.NewPCG(opt.Seed, uint64(i)))
		text := Note(rng, &id, opt.Size, v)
		if err := check(text, v >= 0); err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", name, err)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, text, 0o644); err != nil {
			return nil, err
		}
		if opt.Age != 0 {
			t := time.Now().Add(-opt.Age)
			if err := os.Chtimes(p, t, t); err != nil {
				return nil, err
			}
		}
		info.Files = append(info.Files, name)
		info.Bytes += int64(len(text))
	}
	return info, nil
}

// FileName is the name of file i of n: flat for small corpora, in folders
// of 250 notes for larger ones. Names sort in index order.
func FileName(i, n int) string {
	if n <= 250 {
		return fmt.Sprintf("note-%05d.md", i)
	}
	return fmt.Sprintf("area-%03d/note-%05d.md", i/250, i)
}

// fileName is the name of file i of the corpus opt describes.
func (opt Options) fileName(i int) string {
	switch {
	case opt.PerDir == 0:
		return FileName(i, opt.Files)
	case opt.PerDir < 0:
		return fmt.Sprintf("note-%0*d.md", digits(opt.Files), i)
	}
	w := digits(opt.Files)
	return fmt.Sprintf("area-%03d/note-%0*d.md", i/opt.PerDir, w, i)
}

// digits is how many digits number the files of a corpus of n, at least
// five, so that names sort in index order.
func digits(n int) int { return max(5, len(fmt.Sprint(n-1))) }

// plantedSet returns, for each file index, the variant planted in it or -1.
// The K files are spread evenly and include the last one, so finding all of
// them means reading the whole corpus.
func plantedSet(files, k int) []int {
	s := make([]int, files)
	for i := range s {
		s[i] = -1
	}
	for j := range k {
		s[(j+1)*files/k-1] = j % len(PlantedVariants)
	}
	return s
}

// Text returns one note of exactly size bytes, generated from seed. When
// plant ≥ 0 it holds PlantedVariants[plant%len] once.
func Text(seed uint64, size, plant int) []byte {
	id := 1
	if plant >= 0 {
		plant %= len(PlantedVariants)
	}
	return Note(rand.New(rand.NewPCG(seed, 0)), &id, size, plant)
}

// Note returns one note of exactly size bytes. Note IDs continue from *id.
// When variant ≥ 0, PlantedVariants[variant] is written once in the middle.
func Note(rng *rand.Rand, id *int, size, variant int) []byte {
	var b bytes.Buffer
	b.Grow(size + 512)
	if rng.IntN(4) == 0 {
		fmt.Fprintf(&b, "---\nid: FM-%d\ntags: [practice, %s]\n---\n\n", *id, word(rng))
	}
	fmt.Fprintf(&b, "# %s\n\n", title(rng))
	plantAt := -1
	if variant >= 0 {
		plantAt = size / 2
	}
	for b.Len() < size {
		fmt.Fprintf(&b, "## N%d · %s\n\n", *id, title(rng))
		*id++
		for range 1 + rng.IntN(4) {
			if plantAt >= 0 && b.Len() >= plantAt {
				paragraph(rng, &b, PlantedVariants[variant])
				plantAt = -1
			} else {
				paragraph(rng, &b, "")
			}
			b.WriteByte('\n')
		}
	}
	if plantAt >= 0 {
		// The file is too small for the planted paragraph to come up by
		// itself: put it first, after the title.
		var p bytes.Buffer
		paragraph(rng, &p, PlantedVariants[variant])
		p.WriteByte('\n')
		t := b.Bytes()
		cut := bytes.Index(t, []byte("\n\n")) + 2
		out := append(append(append([]byte{}, t[:cut]...), p.Bytes()...), t[cut:]...)
		b.Reset()
		b.Write(out)
	}
	return fit(b.Bytes(), size)
}

// fit cuts or pads text to exactly size bytes, ending with a line break,
// without splitting a rune. (A cut through the planted phrase is caught by
// check.)
func fit(text []byte, size int) []byte {
	if len(text) > size {
		keep := size - 1
		// Cut at a space or line break so no word (or rune) is split.
		for keep > 0 && text[keep] != ' ' && text[keep] != '\n' {
			keep--
		}
		text = append(text[:keep:keep], '\n')
	}
	for len(text) < size {
		// Pad the last line; letters are safe anywhere.
		text = append(text[:len(text)-1], 'x', '\n')
	}
	return text
}

func paragraph(rng *rand.Rand, b *bytes.Buffer, plant string) {
	if rng.IntN(6) == 0 {
		// A short list.
		for range 2 + rng.IntN(3) {
			b.WriteString("- ")
			sentence(rng, b, 3+rng.IntN(6))
			b.WriteByte('\n')
		}
		if plant == "" {
			return
		}
	}
	col := 0
	n := 2 + rng.IntN(5)
	at := -1
	if plant != "" {
		at = rng.IntN(n)
	}
	for s := range n {
		var sb bytes.Buffer
		if s == at {
			// The phrase is wrapped only where its variant says so:
			// its spaces are kept apart from the wrapping below.
			sb.WriteString("Then the ")
			sb.WriteString(strings.ReplaceAll(plant, " ", "\x00"))
			sb.WriteString(" came up again.")
		} else {
			sentence(rng, &sb, 6+rng.IntN(12))
		}
		for _, w := range bytes.SplitAfter(sb.Bytes(), []byte(" ")) {
			if col > 0 && col+len(w) > 72 && !bytes.Contains(w, []byte("\n")) {
				if t := b.Bytes(); t[len(t)-1] == ' ' {
					b.Truncate(len(t) - 1)
				}
				b.WriteByte('\n')
				col = 0
			}
			b.Write(bytes.ReplaceAll(w, []byte{0}, []byte(" ")))
			col += len(w)
			if i := bytes.LastIndexByte(w, '\n'); i >= 0 {
				col = len(w) - i - 1
			}
		}
		if s < n-1 {
			b.WriteByte(' ')
			col++
		}
	}
	b.WriteByte('\n')
}

func sentence(rng *rand.Rand, b *bytes.Buffer, words int) {
	for i := range words {
		w := word(rng)
		if i == 0 {
			r, n := utf8.DecodeRuneInString(w)
			w = string(unicode.ToUpper(r)) + w[n:]
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		if i < words-1 && rng.IntN(9) == 0 {
			b.WriteByte(',')
		}
	}
	b.WriteString([]string{".", ".", ".", "?", "!"}[rng.IntN(5)])
}

func title(rng *rand.Rand) string {
	n := 2 + rng.IntN(4)
	ws := make([]string, n)
	for i := range ws {
		w := word(rng)
		r, size := utf8.DecodeRuneInString(w)
		ws[i] = string(unicode.ToUpper(r)) + w[size:]
	}
	return strings.Join(ws, " ")
}

func word(rng *rand.Rand) string {
	if rng.IntN(400) == 0 {
		return rare[rng.IntN(len(rare))]
	}
	return vocabulary[rng.IntN(len(vocabulary))]
}

// vocabulary holds common workshop words. It must not contain a word of
// Planted or Absent, nor one starting with such a word (checked by init).
var vocabulary = strings.Fields(`
the a an and or but of to in on at for with from by as is was were be been
it this that these those we they he she you our their its not no all some
team task app note notes meeting review release checklist login sign-in
password reset session cookie page form button screen phone laptop tablet
offline online sync server client queue backup restore export import
dark mode contrast colour badge label due date calendar reminder timer
draft final version build test tests bug fix patch issue ticket board
sprint goal plan planning demo feedback survey user users group facilitator
workshop practice exercise step steps setup install installer update
morning afternoon evening week weekly daily monthly quarter later soon
quick slow careful clear unclear simple broken stable flaky small large
first second third next last other same new old better worse open closed
agreed decided asked answered noted moved kept dropped added removed
checked tried found missed fixed tested shipped merged reverted paused
list item items card cards column columns filter search sort order
battery charger socket cable network wifi router proxy cache memory disk
coffee tea lunch break room table chair window door wall printer
about after before during while until again also only still just even
very more most less least many much few each every both either neither
`)

// rare words carry non-ASCII letters, including ones whose case folding
// changes their UTF-8 length.
var rare = strings.Fields(`café façade naïve Ångström straße déjà über crème
résumé Kelvin ſoft`)

// check verifies the guarantees of one file with a simple matcher that is
// independent of the search engine.
func check(text []byte, planted bool) error {
	norm := normalize(text)
	if strings.Contains(norm, foldString(Absent)) {
		return fmt.Errorf("holds the absent phrase %q", Absent)
	}
	if got := strings.Contains(norm, foldString(Planted)); got != planted {
		return fmt.Errorf("planted phrase present=%v, want %v", got, planted)
	}
	if !utf8.Valid(text) {
		return fmt.Errorf("not valid UTF-8")
	}
	return nil
}

// normalize folds every rune and collapses every run of whitespace, blank
// lines included, to one space: a superset of what a phrase search finds.
func normalize(text []byte) string {
	return strings.Join(strings.Fields(foldString(string(text))), " ")
}

func foldString(s string) string {
	return strings.Map(func(r rune) rune {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		return m
	}, s)
}
