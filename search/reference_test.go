package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"practice-notes/boundary"
	"practice-notes/boundary/seam"
	"practice-notes/tests/corpus"
)

// referenceFind is the plain form of findPassages: it tries every position where a
// rune folding to the query's first rune may start, in order, and finds
// note IDs by reading every line from the top. findPassages must give exactly the
// same answer on any text, valid UTF-8 or not.
func referenceFind(text []byte, q *Query, max int) (passages []passage, more bool) {
	skip := 0 // a byte-order mark is not text
	if len(text) >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF {
		skip = 3
	}
	passages, more = referenceFindText(text[skip:], q, max)
	for i := range passages {
		passages[i].Start += skip
		passages[i].End += skip
	}
	return passages, more
}

func referenceFindText(text []byte, q *Query, max int) (passages []passage, more bool) {
	var first [256]bool
	for _, b := range leadBytes(q.words[0][0]) {
		first[b] = true
	}
	next := func(from int) int {
		for i := from; i < len(text); i++ {
			if first[text[i]] {
				return i
			}
		}
		return -1
	}
	var lines lineCounter
	noteID := func(ps int) string {
		id, off := frontMatter(text)
		var open fence
		for off <= ps && off < len(text) {
			line := text[off:lineEnd(text, off)]
			if open.open() {
				if open.closedBy(line) {
					open = fence{}
				}
			} else if f, ok := openingFence(line); ok {
				open = f
			} else if h, ok := headingText(line); ok {
				if tok := idToken(h); tok != nil {
					id = string(tok)
				}
			}
			nl := bytes.IndexByte(text[off:], '\n')
			if nl < 0 {
				break
			}
			off += nl + 1
		}
		return id
	}
	for i := next(0); i >= 0; i = next(i + 1) {
		end, ok := q.matchAt(text, i)
		if !ok {
			continue
		}
		ps, pe := paragraph(text, i)
		if end > pe {
			continue
		}
		if len(passages) == max {
			return passages, true
		}
		p := passage{Start: ps, End: pe, Line: lines.at(text, i), NoteID: noteID(ps)}
		if pe-ps > MaxPassage {
			p.Start, p.End = window(text, ps, pe, i, end)
			p.Clipped = true
		}
		passages = append(passages, p)
		i = pe
	}
	return passages, false
}

// pieces are the fragments random texts and queries are made of: letters
// whose folding orbits hold runes of other lengths, whitespace of every
// kind the gap rule knows, heading marks, and invalid UTF-8.
var pieces = []string{
	"k", "K", "\u212A", "s", "S", "\u017F", "ß", "ẞ", "i", "I", "İ", "ı",
	"é", "É", "a", "b", "A", "ab", "Ab", "ka", "sk",
	" ", " ", "  ", "\t", "\n", "\n", "\r\n", "\r", "\n\n", " \n ",
	"\u00a0", "\u3000", "\u2028", "\u0085", "\v", "\f", "\xc2", "\xa0", "\ufeff",
	"## N1 · ", "# ", "\n## N2 · ", "---\nid: X-1\n---\n", "\n```\n", "\n~~~~\n", "# N3\n",
	"\xff", "\xe2\x84", "\uFFFD", ".", "-",
}

func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

func randomQuery(rng *rand.Rand) string {
	for {
		raw := randomText(rng, 1+rng.IntN(5))
		raw = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' || r == '\t' {
				return ' '
			}
			return r
		}, raw)
		if utf8.ValidString(raw) && strings.TrimSpace(raw) != "" {
			return raw
		}
	}
}

// withPairScan runs f with the vector pair scan on (where the machine has
// it) and off.
func withPairScan(t *testing.T, f func(t *testing.T)) {
	for _, on := range []bool{true, false} {
		if on && !hasPairScan {
			continue
		}
		t.Run(fmt.Sprintf("pairScan=%v", on), func(t *testing.T) {
			defer func(old bool) { pairScan = old }(pairScan)
			pairScan = on
			f(t)
		})
	}
}

func TestFindMatchesReference(t *testing.T) { withPairScan(t, testFindMatchesReference) }

// TestFindLinearMatchesReference makes find hand every valid text to
// findLinear at its first candidate, and compares with the reference.
func TestFindLinearMatchesReference(t *testing.T) {
	defer func(old int) { verifyBase = old }(verifyBase)
	verifyBase = -1 << 40
	withPairScan(t, testFindMatchesReference)
	for _, c := range []struct{ text, query string }{
		{"a\n\u3000\nb a\n\u3000b", "a b"}, // a gap of two line breaks, then one
		{"aaa aaab aaaab\n\naaaa b", "aaa b"},
		{"x\u0301\u0301\u0301\u0301y x\u0301\u0301\u0301y", "\u0301\u0301\u0301y"},
		{"ab ab ab abc ab ab abc", "ab ab abc"},
	} {
		q, err := ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := referenceFind([]byte(c.text), q, MaxMatches)
		got, _ := findPassages([]byte(c.text), false, q, MaxMatches)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("findPassages(%q, %q) (-want +got):\n%s", c.text, c.query, diff)
		}
	}
}

func testFindMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 30000
	if testing.Short() {
		n = 3000
	}
	for i := range n {
		text := randomText(rng, rng.IntN(60))
		if i%50 == 0 {
			text += strings.Repeat("ab k ", 250) + text // long paragraphs get clipped
		}
		raw := randomQuery(rng)
		q, err := ParseQuery(raw)
		if err != nil {
			continue
		}
		max := 1 + rng.IntN(MaxMatches)
		want, wantMore := referenceFind([]byte(text), q, max)
		got, gotMore := findPassages([]byte(text), false, q, max)
		if diff := cmp.Diff(want, got); diff != "" || gotMore != wantMore {
			t.Fatalf("findPassages(%q, %q, %d): more=%v want %v; (-want +got):\n%s", text, raw, max, gotMore, wantMore, diff)
		}
		if utf8.ValidString(text) {
			got, gotMore := findPassages([]byte(text), true, q, max)
			if diff := cmp.Diff(want, got); diff != "" || gotMore != wantMore {
				t.Fatalf("findPassages(%q, true, %q, %d): more=%v want %v; (-want +got):\n%s", text, raw, max, gotMore, wantMore, diff)
			}
		}
	}
}

// FuzzFindMatchesReference compares findPassages with referenceFind on any input.
func FuzzFindMatchesReference(f *testing.F) {
	f.Add("The K\u212Aelvin ſign-in\nform", "kelvin")
	f.Add("release\r\n checklist\n\nrelease  checklist", "release checklist")
	f.Add("a \xff b\uFFFD", "\uFFFD b")
	f.Fuzz(func(t *testing.T, text, raw string) {
		q, err := ParseQuery(raw)
		if err != nil {
			return
		}
		want, wantMore := referenceFind([]byte(text), q, MaxMatches)
		got, gotMore := findPassages([]byte(text), false, q, MaxMatches)
		if diff := cmp.Diff(want, got); diff != "" || gotMore != wantMore {
			t.Fatalf("findPassages(%q, %q): more=%v want %v; (-want +got):\n%s", text, raw, gotMore, wantMore, diff)
		}
		if utf8.ValidString(text) {
			got, gotMore := findPassages([]byte(text), true, q, MaxMatches)
			if diff := cmp.Diff(want, got); diff != "" || gotMore != wantMore {
				t.Fatalf("findPassages(%q, true, %q): more=%v want %v; (-want +got):\n%s", text, raw, gotMore, wantMore, diff)
			}
		}
	})
}

func TestAnchorLeadBytes(t *testing.T) {
	tests := []struct {
		r    rune
		want string
	}{
		{'K', "Kk\xe2"}, // U+212A KELVIN SIGN starts with 0xE2
		{'S', "Ss\xc5"}, // U+017F LATIN SMALL LETTER LONG S starts with 0xC5
		{'É', "\xc3"},
		{'İ', "\xc4"},
		{'-', "-"},
	}
	for _, tt := range tests {
		got := leadBytes(tt.r)
		if !sameSet(got, []byte(tt.want)) {
			t.Errorf("leadBytes(%q) = %q, want the bytes of %q", tt.r, got, tt.want)
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if fold(r) != r {
			continue
		}
		var buf [utf8.UTFMax]byte
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			utf8.EncodeRune(buf[:], f)
			if !bytes.Contains(leadBytes(r), buf[:1]) {
				t.Fatalf("leadBytes(%U) misses the first byte of %U", r, f)
			}
		}
		if len(leadBytes(r)) > 4 {
			t.Fatalf("leadBytes(%U) has %d bytes; the cursor holds 4", r, len(leadBytes(r)))
		}
	}
}

func sameSet(a, b []byte) bool {
	for _, x := range a {
		if !bytes.Contains(b, []byte{x}) {
			return false
		}
	}
	for _, x := range b {
		if !bytes.Contains(a, []byte{x}) {
			return false
		}
	}
	return true
}

func TestIndexPair(t *testing.T) {
	if !hasPairScan {
		t.Skip("no vector pair scan on this machine")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "aAbB-\x00\xff "
	for range 20000 {
		s := make([]byte, rng.IntN(200))
		for i := range s {
			s[i] = alphabet[rng.IntN(len(alphabet))]
		}
		c0, m0, c1, m1 := byte('a'), byte(0x20), byte('b'), byte(0x20)
		if rng.IntN(3) == 0 {
			c1, m1 = '-', 0
		}
		// Offsetting the slice start varies the alignment of loads.
		off := rng.IntN(min(len(s), 5) + 1)
		s = s[off:]
		want := -1
		for i := 0; i+1 < len(s); i++ {
			if s[i]|m0 == c0 && s[i+1]|m1 == c1 {
				want = i
				break
			}
		}
		if got := indexPair(s, c0, m0, c1, m1); got != want {
			t.Fatalf("indexPair(%q, %q, %q) = %d, want %d", s, c0, c1, got, want)
		}
	}
}

// TestIndexPairAtEveryOffset plants one pair at every offset of texts of
// many lengths, with nothing like it elsewhere, so that every block and
// half-block of the vector scan finds it, and the scalar tail after them.
func TestIndexPairAtEveryOffset(t *testing.T) {
	if !hasPairScan {
		t.Skip("no vector pair scan on this machine")
	}
	for n := 2; n <= 200; n++ {
		for at := 0; at+1 < n; at++ {
			s := bytes.Repeat([]byte("x"), n)
			s[at], s[at+1] = 'A', 'b'
			if at+3 < n {
				s[at+2], s[at+3] = 'a', 'B' // a later match must not be the one found
			}
			if got := indexPair(s, 'a', 0x20, 'b', 0x20); got != at {
				t.Fatalf("indexPair(%d bytes with the pair at %d) = %d", n, at, got)
			}
		}
		if got := indexPair(bytes.Repeat([]byte("x"), n), 'a', 0x20, 'b', 0x20); got != -1 {
			t.Fatalf("indexPair(%d bytes without the pair) = %d, want -1", n, got)
		}
	}
}

func TestChoosePair(t *testing.T) {
	if !hasPairScan {
		t.Skip("no vector pair scan on this machine")
	}
	for _, tt := range []struct {
		query string
		pair  bool
	}{
		{"velvet lantern", true},
		{"sk", false},       // both orbits hold a non-ASCII rune
		{"a b c", false},    // no two runes in one word
		{"café", true},      // "ca" or "af"
		{"x\uFFFDy", false}, // U+FFFD anchors on the first rune, alone
	} {
		q, err := ParseQuery(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		if q.pair != tt.pair {
			t.Errorf("ParseQuery(%q).pair = %v, want %v", tt.query, q.pair, tt.pair)
		}
	}
}

// The parallel scan must give exactly what reading one note after another
// gives: the same passages, the same truncation, and only the read refusals
// of notes before the point where the answer was certain. Refusals made
// by the walk are reported wherever the note lies.
func TestRunParallelMatchesSequential(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Options{Files: 300, Size: 2000, Seed: 7, K: 30}); err != nil {
		t.Fatal(err)
	}
	// Only a read can tell that a note is not text.
	notText := "amber signal drift\n\x00\n"
	writeFile(t, filepath.Join(dir, "area-000", "note-00050x.md"), notText) // before the 11th passage
	writeFile(t, filepath.Join(dir, "area-001", "note-00290x.md"), notText) // after it
	// The walk already refuses a note over the size limit.
	writeFile(t, filepath.Join(dir, "area-001", "note-00295x.md"), strings.Repeat("amber signal drift\n", boundary.MaxFileSize/10))
	if err := os.Symlink("/dev/null", filepath.Join(dir, "area-001", "note-00260x.md")); err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, query := range []string{corpus.Planted, corpus.Absent, "the"} {
		runtime.GOMAXPROCS(1)
		want := runQuery(t, dir, query)
		for _, procs := range []int{2, 3, 8} {
			runtime.GOMAXPROCS(procs)
			got := runQuery(t, dir, query)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%q with GOMAXPROCS=%d differs from one note at a time (-want +got):\n%s", query, procs, diff)
			}
		}
		if query == corpus.Planted {
			if !want.Truncated || len(want.Matches) != MaxMatches {
				t.Errorf("%q: %d matches, truncated=%v; want %d, true", query, len(want.Matches), want.Truncated, MaxMatches)
			}
			var names []string
			for _, s := range want.Skipped {
				names = append(names, s.File)
			}
			if got, want := strings.Join(names, " "), "area-000/note-00050x.md area-001/note-00260x.md area-001/note-00295x.md"; got != want {
				t.Errorf("skipped %s, want %s", got, want)
			}
		}
	}
}

// A call cancelled while notes are being read on several goroutines returns
// the cancellation, and no goroutine it started outlives it.
func TestRunParallelCancelled(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Options{Files: 300, Size: 1000, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	q, err := ParseQuery(corpus.Absent)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var reads atomic.Int32
	hook := func(_ context.Context, op seam.Op, _ string) error {
		if op == seam.ReadFile && reads.Add(1) == 50 {
			cancel()
			// This read is still going on when the others see the
			// cancellation: Run must wait for it.
			time.Sleep(100 * time.Millisecond)
		}
		return nil
	}
	root, err := boundary.Open(dir, seam.Options{Faults: hook})
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, _, err := New(root, Options{}).Run(ctx, q); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run cancelled after 50 reads: %v, want context.Canceled", err)
	}
	if n := reads.Load(); n >= 300 {
		t.Errorf("all %d notes were read after the call was cancelled", n)
	}
	// A goroutine that has called wg.Done is still listed until it returns,
	// which a loaded machine may delay a little; a leaked one stays.
	buf := make([]byte, 1<<20)
	var stacks string
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		stacks = string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "practice-notes/search.scan") || time.Now().After(deadline) {
			break
		}
	}
	if strings.Contains(stacks, "practice-notes/search.scan") {
		t.Errorf("a goroutine of the scan outlived Run by 2 s:\n%s", stacks)
	}
}
