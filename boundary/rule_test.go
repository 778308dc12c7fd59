//go:build unix

package boundary

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// One rule says what a note is: every file in a tree is either listed by
// Walk and returned by ReadNote, or neither, whatever makes it not a note
// (a dot name, depth, size or type).
func TestOneNoteRule(t *testing.T) {
	rootDir := t.TempDir()
	deep := func(n int) string { return strings.Repeat("d/", n) + "note.md" }
	notes := map[string]string{
		"a.md":              "a\n",
		".hidden.md":        "hidden\n",
		".private/diary.md": "diary\n",
		"sub/.x/y.md":       "hidden dir\n",
		"sub/..z.md":        "dots\n",
		deep(MaxDepth):      "deepest listed\n",
		deep(MaxDepth + 1):  "too deep\n",
		"big.md":            strings.Repeat("x", MaxFileSize+1),
		"limit.md":          strings.Repeat("x", MaxFileSize),
		"other.pdf":         "not a note\n",
	}
	for name, text := range notes {
		write(t, filepath.Join(rootDir, filepath.FromSlash(name)), text)
	}
	if err := syscall.Mkfifo(filepath.Join(rootDir, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := open(t, rootDir)
	ctx := context.Background()
	listing, err := r.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	reasons := map[string]error{}
	err = filepath.WalkDir(rootDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(rootDir, p)
		name := filepath.ToSlash(rel)
		if _, err := r.ReadNote(ctx, name); err == nil {
			read = append(read, name)
		} else {
			var be *Error
			if !errors.As(err, &be) {
				t.Fatalf("ReadNote(%q): %v, not an *Error", name, err)
			}
			reasons[name] = be.Reason
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(read)
	if diff := cmp.Diff(names(listing), read); diff != "" {
		t.Errorf("Walk lists (-) and ReadNote returns (+) different notes:\n%s", diff)
	}
	for name, want := range map[string]error{
		".hidden.md":        errHidden,
		".private/diary.md": errHidden,
		"sub/.x/y.md":       errHidden,
		"sub/..z.md":        errHidden,
		deep(MaxDepth + 1):  errTooDeep,
		"big.md":            errTooLarge,
		"fifo.md":           errNotRegular,
		"other.pdf":         errNotNote,
	} {
		if reasons[name] != want {
			t.Errorf("ReadNote(%q) refused with %v; want %v", name, reasons[name], want)
		}
	}
	if !slices.Contains(names(listing), deep(MaxDepth)) {
		t.Errorf("Walk did not list %q, %d directories deep", deep(MaxDepth), MaxDepth)
	}
}
