package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/boundary"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// answer is all a call returns, for whole comparisons.
type answer struct {
	*Result
	Coverage
}

// run searches root for query with sums (nil: every note is read), as a
// Searcher made with them does.
func runWith(t *testing.T, root *boundary.Root, query string, sums *summaries) answer {
	t.Helper()
	q, err := ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	s := &Searcher{root: root, sums: sums}
	res, cov, err := s.Run(context.Background(), q)
	if err != nil {
		t.Fatalf("Run(%q): %v", query, err)
	}
	return answer{res, cov}
}

func runQuery(t *testing.T, dir, query string) answer {
	t.Helper()
	root, err := boundary.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	return runWith(t, root, query, nil)
}

func TestRun(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "root")
	writeFile(t, filepath.Join(base, "outside.md"), "tea from outside\n")
	writeFile(t, filepath.Join(dir, "b.md"), "## N2 · B\n\nGreen tea.\n")
	writeFile(t, filepath.Join(dir, "a.md"), "## N1 · A\n\nBlack tea.\n\nMore TEA.\n")
	writeFile(t, filepath.Join(dir, "a", "c.md"), "Nested tea.\n")
	writeFile(t, filepath.Join(dir, "big.md"), strings.Repeat("tea ", boundary.MaxFileSize))
	writeFile(t, filepath.Join(dir, "notes.txt"), "Plain tea.\n")
	if err := os.Symlink(filepath.Join(base, "outside.md"), filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}

	got := runQuery(t, dir, "tea")
	want := answer{&Result{
		Query: "tea",
		Matches: []Match{
			{File: "a.md", NoteID: "N1", Line: 3, Passage: "Black tea."},
			{File: "a.md", NoteID: "N1", Line: 5, Passage: "More TEA."},
			{File: "a/c.md", Line: 1, Passage: "Nested tea."},
			{File: "b.md", NoteID: "N2", Line: 3, Passage: "Green tea."},
			{File: "notes.txt", Line: 1, Passage: "Plain tea."},
		},
		Skipped: []Skipped{
			{File: "big.md", Reason: "larger than the 100 KiB file limit"},
			{File: "link.md", Reason: "symbolic link (not followed)"},
		},
	}, Coverage{NotSearched: 2}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Run mismatch (-want +got):\n%s", diff)
	}

	none := runQuery(t, dir, "coffee")
	if none.Matches == nil || len(none.Matches) != 0 || none.NotSearched != 2 || none.Truncated {
		t.Errorf("no-match result: %+v", none)
	}
}

func TestRunTruncatesAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	for i := range 6 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("n%d.md", i)), "tea\n\ntea\n")
	}
	got := runQuery(t, dir, "tea")
	if len(got.Matches) != MaxMatches || !got.Truncated {
		t.Fatalf("got %d matches, truncated=%v; want %d, true", len(got.Matches), got.Truncated, MaxMatches)
	}
	if last := got.Matches[MaxMatches-1]; last.File != "n4.md" || last.Line != 3 {
		t.Errorf("last match is %s:%d, want n4.md:3", last.File, last.Line)
	}
}

func TestRunCapsSkipped(t *testing.T) {
	dir := t.TempDir()
	for i := range MaxSkipped + 5 {
		if err := os.Symlink("/dev/null", filepath.Join(dir, fmt.Sprintf("l%02d.md", i))); err != nil {
			t.Fatal(err)
		}
	}
	got := runQuery(t, dir, "tea")
	if len(got.Skipped) != MaxSkipped || got.NotSearched != MaxSkipped+5 {
		t.Errorf("skipped %d, %d not searched; want %d, %d", len(got.Skipped), got.NotSearched, MaxSkipped, MaxSkipped+5)
	}
}

func TestRunCancelled(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.md"), "tea\n")
	root, err := boundary.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	q, _ := ParseQuery("tea")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := New(root, Options{}).Run(ctx, q); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context: %v, want context.Canceled", err)
	}
}
