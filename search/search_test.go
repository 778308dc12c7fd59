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

func runQuery(t *testing.T, dir, query string) *Result {
	t.Helper()
	root, err := boundary.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	q, err := ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), root, q, nil)
	if err != nil {
		t.Fatalf("Run(%q): %v", query, err)
	}
	return res
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
	want := &Result{
		Query: "tea",
		Matches: []Match{
			{File: "a.md", NoteID: "N1", Line: 3, Passage: "Black tea."},
			{File: "a.md", NoteID: "N1", Line: 5, Passage: "More TEA."},
			{File: "a/c.md", Line: 1, Passage: "Nested tea."},
			{File: "b.md", NoteID: "N2", Line: 3, Passage: "Green tea."},
			{File: "notes.txt", Line: 1, Passage: "Plain tea."},
		},
		Message: `5 passages matched "tea". 2 files were not searched.`,
		Skipped: []Skipped{
			{File: "big.md", Reason: "larger than the 100 KiB file limit"},
			{File: "link.md", Reason: "symbolic link (not followed)"},
		},
		Listed: 4, // big.md and link.md are not notes a read returns
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Run mismatch (-want +got):\n%s", diff)
	}

	none := runQuery(t, dir, "coffee")
	if none.Matches == nil || len(none.Matches) != 0 || none.Message != `No notes matched "coffee". 2 files were not searched.` {
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
	if !strings.HasPrefix(got.Message, "Showing the first 10 passages") {
		t.Errorf("message %q does not say the list is cut", got.Message)
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
	if len(got.Skipped) != MaxSkipped || !strings.Contains(got.Message, "25 files were not searched") {
		t.Errorf("skipped %d, message %q", len(got.Skipped), got.Message)
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
	if _, err := Run(ctx, root, q, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context: %v, want context.Canceled", err)
	}
}
