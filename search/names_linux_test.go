package search

import (
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"practice-notes/boundary"
)

// A note whose name is not valid UTF-8 is not searched: reported as
// U+FFFD, its passages would be credited to a note really named so. It is
// listed as skipped under a name that no note can have.
func TestNamesNotUTF8AreNotSearched(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "\xff.md"), "The "+phrase+" is lit.\n")
	writeFile(t, filepath.Join(dir, "\xfe.md"), "The "+phrase+" again.\n")
	writeFile(t, filepath.Join(dir, "\uFFFD.md"), "Nothing here.\n")
	root, err := boundary.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	res := search(t, root, phrase, nil)
	if len(res.Matches) != 0 {
		t.Errorf("passages from notes whose names are not UTF-8: %+v", res.Matches)
	}
	want := []Skipped{
		{File: `\xfe.md`, Reason: "name is not valid UTF-8"},
		{File: `\xff.md`, Reason: "name is not valid UTF-8"},
	}
	if diff := cmp.Diff(want, res.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	for _, s := range res.Skipped {
		if !utf8.ValidString(s.File) {
			t.Errorf("skipped name %q is not valid UTF-8", s.File)
		}
	}
}
