package search

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"practice-notes/boundary"
	"practice-notes/tests/corpus"
)

// Benchmarks of the engine. They are not timed tests: `go test ./...` only
// compiles them; run them with
//
//	go test -run '^$' -bench . -benchmem ./search/
//
// Each reports bytes of note text scanned per second and allocations per
// operation.

// benchQueries are the phrases measured: one absent from the corpus, one
// planted in it (with whitespace between its words), one with non-ASCII
// letters, one with whitespace that matches often, and one absent phrase
// made of words every note holds, whose anchor is met every few hundred
// bytes.
var benchQueries = []struct{ name, query string }{
	{"absent", corpus.Absent},
	{"present", corpus.Planted},
	{"nonascii", corpus.NonASCII},
	{"whitespace", "the  checklist"},
	{"common", "the release was the team login"},
}

// BenchmarkFind measures matching alone, on one 60 KB note in memory that
// holds the planted phrase once.
func BenchmarkFind(b *testing.B) {
	text := corpus.Text(1, 60000, 0)
	for _, bq := range benchQueries {
		q, err := ParseQuery(bq.query)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bq.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				findPassages(text, true, q, MaxMatches)
			}
		})
	}
}

// BenchmarkRun measures a whole call: walking a generated folder of 200
// notes of 20 KB, reading each afresh and matching.
func BenchmarkRun(b *testing.B) {
	dir := b.TempDir()
	info, err := corpus.Generate(dir, corpus.Options{Files: 200, Size: 20000, Seed: 1, K: 8})
	if err != nil {
		b.Fatal(err)
	}
	root, err := boundary.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	s := New(root, Options{})
	ctx := context.Background()
	for _, bq := range benchQueries {
		q, err := ParseQuery(bq.query)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bq.name, func(b *testing.B) {
			b.SetBytes(info.Bytes)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := s.Run(ctx, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRunDir measures a whole call on the folder named by
// $PRACTICE_NOTES_BENCH_DIR (for example one made by tests/gencorpus), to
// profile the engine on a large corpus:
//
//	PRACTICE_NOTES_BENCH_DIR=/tmp/corpus go test -run '^$' -bench RunDir -cpuprofile cpu.out ./search/
//
// It is skipped when the variable is not set.
func BenchmarkRunDir(b *testing.B) {
	dir, root := benchDir(b)
	var size int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	s := New(root, Options{})
	ctx := context.Background()
	for _, bq := range benchQueries[:2] {
		q, err := ParseQuery(bq.query)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bq.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := s.Run(ctx, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchDir returns the folder named by $PRACTICE_NOTES_BENCH_DIR and a
// root open on it, closed when b ends, or skips b when it is not set.
func benchDir(b *testing.B) (string, *boundary.Root) {
	dir := os.Getenv("PRACTICE_NOTES_BENCH_DIR")
	if dir == "" {
		b.Skip("PRACTICE_NOTES_BENCH_DIR is not set")
	}
	root, err := boundary.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { root.Close() })
	return dir, root
}

// BenchmarkRunDirSteady measures a steady call on the folder named by
// $PRACTICE_NOTES_BENCH_DIR: a Searcher with summaries, once every note
// the first call listed is summarised, searching for an absent phrase.
// The notes' times must be older than the writeback window (see
// boundary.Stamp) for summaries to apply, as tests/gencorpus -age makes
// them. It is skipped when the variable is not set.
func BenchmarkRunDirSteady(b *testing.B) {
	_, root := benchDir(b)
	s := New(root, Options{Summaries: true})
	defer s.Close()
	ctx := context.Background()
	q, err := ParseQuery(benchQueries[0].query)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := s.Run(ctx, q); err != nil {
		b.Fatal(err)
	}
	waitBuilt(b, s.sums)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.Run(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseQuery measures preparing each query, which every call does
// before it reads a note.
func BenchmarkParseQuery(b *testing.B) {
	for _, bq := range benchQueries {
		b.Run(bq.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseQuery(bq.query); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// worstCases are query and text pairs that make every position of the text
// a candidate a naive matcher checks with most of the query: combining
// marks against a query of marks that ends otherwise, and lines of one
// letter against a query of that letter longer than any line. Each text is
// about 100 KiB, the size of the largest note; "ordinary" is a note of
// the corpus with an absent phrase, the cost the others are compared with.
var worstCases = []struct {
	name, query string
	text        func() []byte
}{
	{"ordinary", corpus.Absent, func() []byte { return corpus.Text(1, 100000, -1) }},
	{"marks", strings.Repeat("\u0301", 199) + "x", func() []byte {
		return []byte(strings.Repeat(strings.Repeat("\u0301", 250)+"\n", 200))
	}},
	{"marks-after-letter", "e" + strings.Repeat("\u0301", 198) + "x", func() []byte {
		return []byte(strings.Repeat("e"+strings.Repeat("\u0301", 249)+"\n", 200))
	}},
	{"letters", strings.Repeat("a", 200), func() []byte {
		return []byte(strings.Repeat(strings.Repeat("a", 150)+"\n", 660))
	}},
	{"letters-words", strings.Repeat("aa ", 66) + "b", func() []byte {
		return []byte(strings.Repeat(strings.Repeat("aa ", 49)+"aa\n", 660))
	}},
	// The query's last two runes, its anchor pair, recur every 8th rune,
	// each a candidate the rune before refuses.
	{"pair-every-8th", "abcdefgz", func() []byte {
		return []byte(strings.Repeat(strings.Repeat("qqqqqqgz", 10)+"\n", 1250))
	}},
	// Every rune of the query and of the text starts with the byte 0xD0,
	// and the query's last two runes recur every 8th rune: every rune is
	// a candidate, and no rune of the query is rarer than the anchor.
	{"cyrillic-every-8th", "абвгдежз", func() []byte {
		return []byte(strings.Repeat(strings.Repeat("ййййййжз", 10)+"\n", 625))
	}},
}

// BenchmarkFindWorstCase measures matching on the worst cases, valid
// UTF-8 as every note a read returns, to compare with the ordinary one per
// byte.
func BenchmarkFindWorstCase(b *testing.B) {
	for _, wc := range worstCases {
		text := wc.text()
		if !utf8.Valid(text) {
			b.Fatalf("%s: not valid UTF-8", wc.name)
		}
		q, err := ParseQuery(wc.query)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(wc.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				findPassages(text, true, q, MaxMatches)
			}
		})
	}
}

// BenchmarkRunWorstCase measures whole calls, each note read afresh, on a
// folder of ten notes of each worst case, to compare the cost per byte
// of a call with that of ordinary notes.
func BenchmarkRunWorstCase(b *testing.B) {
	for _, wc := range worstCases {
		dir := b.TempDir()
		text := wc.text()
		for i := range 10 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("note-%d.md", i)), text, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		root, err := boundary.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		q, err := ParseQuery(wc.query)
		if err != nil {
			b.Fatal(err)
		}
		s := New(root, Options{})
		b.Run(wc.name, func(b *testing.B) {
			b.SetBytes(10 * int64(len(text)))
			for b.Loop() {
				if _, _, err := s.Run(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
		root.Close()
	}
}
