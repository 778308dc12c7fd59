package boundary

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"practice-notes/tests/corpus"
)

// referenceIsText is the plain statement of what isText decides.
func referenceIsText(p []byte) bool {
	return bytes.IndexByte(p, 0) < 0 && utf8.Valid(p)
}

// textPath is one way isText may check a note.
type textPath struct {
	name  string
	check func([]byte) bool
}

// textPaths are the paths this machine can run: the portable one always,
// the vector one where the CPU has it.
func textPaths(t testing.TB) []textPath {
	paths := []textPath{{"portable", isTextPortable}}
	if !hasTextScan {
		t.Logf("no vector scan on this machine: checking the portable path only")
		return paths
	}
	return append(paths, textPath{"vector", isTextVector})
}

// plainFiller returns n bytes cycling through every byte that is ASCII and
// not NUL, so that a scan taking any of them for a byte it must stop at is
// caught.
func plainFiller(n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(1 + i%0x7f)
	}
	return p
}

// textPads are the lengths of ASCII put after the bytes under test: none,
// part of a word, part of a block, whole blocks and more.
var textPads = []int{0, 1, 5, 8, 31, 32, 33, 63, 64, 97}

func TestIsTextAtEveryOffset(t *testing.T) {
	tests := []struct {
		name string
		seq  string
		want bool
	}{
		{"NUL", "\x00", false},
		{"lone continuation byte", "\x80", false},
		{"byte 0xff", "\xff", false},
		{"DEL", "\x7f", true},
		{"truncated 3-byte sequence", "\xe2\x80", false},
		{"truncated 4-byte sequence", "\xf0\x9f\x98", false},
		{"overlong 2-byte slash", "\xc0\xaf", false},
		{"overlong 3-byte slash", "\xe0\x80\xaf", false},
		{"surrogate", "\xed\xa0\x80", false},
		{"above U+10FFFF", "\xf4\x90\x80\x80", false},
		{"U+FFFD itself", "\uFFFD", true},
		{"2-byte rune", "é", true},
		{"em dash", "—", true},
		{"4-byte rune", "\U0001F600", true},
		{"runes back to back", "é—\U0001F600ü", true},
		{"rune then NUL", "—\x00", false},
		{"rune then lone continuation byte", "é\x80", false},
		// Runs of sequences, checked one after another without a vector
		// load between them, then each kind of refusal.
		{"run of marks", strings.Repeat("\u0301", 70), true},
		{"run of 3-byte runes", strings.Repeat("漢", 50), true},
		{"run of marks, a 4-byte rune, marks", strings.Repeat("\u0301", 40) + "\U0001F600" + strings.Repeat("\u0301", 40), true},
		{"run of marks then NUL", strings.Repeat("\u0301", 40) + "\x00", false},
		{"run of marks then lone continuation byte", strings.Repeat("\u0301", 40) + "\x80", false},
		{"run of 3-byte runes then surrogate", strings.Repeat("漢", 30) + "\xed\xa0\x80", false},
		{"run of 3-byte runes then overlong", strings.Repeat("漢", 30) + "\xe0\x80\xaf", false},
		{"run of marks then overlong 2-byte", strings.Repeat("\u0301", 40) + "\xc0\xaf", false},
		{"run of marks then truncated 3-byte", strings.Repeat("\u0301", 40) + "\xe2\x80", false},
		{"run of marks then above U+10FFFF", strings.Repeat("\u0301", 40) + "\xf4\x90\x80\x80", false},
	}
	for _, path := range textPaths(t) {
		for _, tt := range tests {
			t.Run(path.name+"/"+tt.name, func(t *testing.T) {
				if got := referenceIsText([]byte(tt.seq)); got != tt.want {
					t.Fatalf("the reference says %v for %q; the table is wrong", got, tt.seq)
				}
				for off := 0; off <= 130; off++ {
					for _, pad := range textPads {
						p := append(plainFiller(off), tt.seq...)
						p = append(p, plainFiller(pad)...)
						if got := path.check(p); got != tt.want {
							t.Fatalf("%q at offset %d of %d bytes: got %v, want %v",
								tt.seq, off, len(p), got, tt.want)
						}
					}
				}
			})
		}
	}
}

func TestIsTextPlain(t *testing.T) {
	for _, path := range textPaths(t) {
		t.Run(path.name, func(t *testing.T) {
			for n := 0; n <= 300; n++ {
				if !path.check(plainFiller(n)) {
					t.Fatalf("%d bytes of plain ASCII refused", n)
				}
			}
		})
	}
}

func FuzzIsText(f *testing.F) {
	for _, s := range []string{
		"", "plain ASCII", "\x00", "caf\xc3\xa9", "—", "\xed\xa0\x80", "\xc0\xaf",
		"\uFFFD", "\xf4\x90\x80\x80", "\U0001F600",
		string(plainFiller(70)) + "—" + string(plainFiller(40)),
		string(plainFiller(63)) + "\xe2\x80",
		string(plainFiller(64)) + "\x00" + string(plainFiller(64)),
	} {
		f.Add([]byte(s))
	}
	paths := textPaths(f)
	f.Fuzz(func(t *testing.T, p []byte) {
		want := referenceIsText(p)
		for _, path := range paths {
			if got := path.check(p); got != want {
				t.Errorf("%s(%q) = %v, the reference says %v", path.name, p, got, want)
			}
		}
	})
}

// BenchmarkIsText checks one generated 60 KB note, as every read does, with
// the reference expression and each path of isText; and, with each path,
// 100 KB of combining marks and of CJK text, sequence after sequence.
func BenchmarkIsText(b *testing.B) {
	note := corpus.Text(1, 60000, 0)
	if !referenceIsText(note) {
		b.Fatal("the generated note is not text")
	}
	for _, path := range append([]textPath{{"reference", referenceIsText}}, textPaths(b)...) {
		b.Run(path.name, func(b *testing.B) {
			b.SetBytes(int64(len(note)))
			for b.Loop() {
				if !path.check(note) {
					b.Fatal("the note was refused")
				}
			}
		})
	}
	runs := []struct{ name, text string }{
		{"marks", strings.Repeat(strings.Repeat("\u0301", 250)+"\n", 200)},
		{"cjk", strings.Repeat(strings.Repeat("漢字", 100)+"\n", 160)},
	}
	for _, run := range runs {
		text := []byte(run.text)
		for _, path := range textPaths(b) {
			b.Run(run.name+"/"+path.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if !path.check(text) {
						b.Fatal("the text was refused")
					}
				}
			})
		}
	}
}
