//go:build unix

package boundary

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/boundary/seam"
)

// TestWalkCutInByteOrder fills folders past a walk's entry limit, creating
// the files in a shuffled order so that the file system lists them in an
// order of its own, and checks that the notes listed are the first ones in
// byte order of what the walk lists without the limit, and that the entries
// refused are reported only among those examined.
func TestWalkCutInByteOrder(t *testing.T) {
	const limit = 100
	tests := []struct {
		name string
		// make fills dir and returns the notes a walk without the limit
		// lists there (in byte order) and how many entries come before
		// them in the walk's count.
		files func(t *testing.T, dir string) []string
		want  func(all []string) []string
	}{
		{
			name: "one folder",
			files: func(t *testing.T, dir string) []string {
				return makeNotes(t, dir, "", 300)
			},
			want: func(all []string) []string {
				// The root's first 100 entries; one is the link.
				return all[:limit-1]
			},
		},
		{
			name: "a large folder before a note",
			files: func(t *testing.T, dir string) []string {
				notes := makeNotes(t, dir, "a", 300)
				writeFile(t, filepath.Join(dir, "b.md"), "after the folder")
				return append(notes, "b.md")
			},
			want: func(all []string) []string {
				// The root's two entries, then 98 of a's, one the link;
				// b.md comes after the cut.
				return all[:limit-2-1]
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			all := tc.files(t, dir)
			full := walkNames(t, openLimited(t, dir, 0))
			if diff := cmp.Diff(all, full.notes); diff != "" {
				t.Fatalf("the walk without a limit (-want +got):\n%s", diff)
			}
			// Every walk of a root makes the same cut.
			r := openLimited(t, dir, limit)
			for range 3 {
				got := walkNames(t, r)
				if diff := cmp.Diff(tc.want(all), got.notes); diff != "" {
					t.Errorf("notes listed at the limit (-want +got):\n%s", diff)
				}
				if !got.cut || !got.incomplete {
					t.Errorf("Cut = %v, Incomplete = %v; want both", got.cut, got.incomplete)
				}
				// The link early in byte order is examined and refused; the
				// one at the end is not examined.
				if !slices.ContainsFunc(got.skipped, func(s string) bool { return filepath.Base(s) == "note-00005-link.md" }) {
					t.Errorf("skipped %q: want the link among the first entries", got.skipped)
				}
				if slices.ContainsFunc(got.skipped, func(s string) bool { return filepath.Base(s) == "zz-link.md" }) {
					t.Errorf("skipped %q: the last link lies past the cut", got.skipped)
				}
			}
			// Once the folder is small again, all of it is listed.
			for _, name := range all[41:] {
				if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
					t.Fatal(err)
				}
			}
			got := walkNames(t, r)
			if diff := cmp.Diff(all[:41], got.notes); diff != "" || got.cut {
				t.Errorf("notes listed once the folder is under the limit, Cut = %v (-want +got):\n%s", got.cut, diff)
			}
		})
	}
}

// makeNotes makes n notes in dir/sub, in a shuffled order, plus a link
// among the first names and one after the last, and returns the notes'
// names relative to dir in byte order.
func makeNotes(t *testing.T, dir, sub string, n int) []string {
	t.Helper()
	at := filepath.Join(dir, sub)
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("note-%05d.md", i))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	shuffled := slices.Clone(names)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, name := range shuffled {
		writeFile(t, filepath.Join(at, name), "a note\n")
	}
	for _, link := range []string{"note-00005-link.md", "zz-link.md"} {
		if err := os.Symlink("note-00001.md", filepath.Join(at, link)); err != nil {
			t.Fatal(err)
		}
	}
	if sub != "" {
		for i := range names {
			names[i] = sub + "/" + names[i]
		}
	}
	return names
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

type walked struct {
	notes, skipped  []string
	cut, incomplete bool
}

// openLimited opens dir with walks of at most limit entries (0 for
// MaxEntries).
func openLimited(t *testing.T, dir string, limit int) *Root {
	t.Helper()
	r, err := Open(dir, seam.Options{MaxEntries: limit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// walkNames walks r.
func walkNames(t *testing.T, r *Root) walked {
	t.Helper()
	l, err := r.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w := walked{cut: l.Cut, incomplete: l.Incomplete}
	for _, n := range l.Notes {
		w.notes = append(w.notes, n.Name)
	}
	for _, s := range l.Skipped {
		w.skipped = append(w.skipped, s.Name)
	}
	return w
}
