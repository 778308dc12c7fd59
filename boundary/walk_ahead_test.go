package boundary

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/boundary/seam"
)

// TestWalkAheadMatchesSequential: a walk that lists directories ahead of
// itself (GOMAXPROCS above 1) gives the listing of a walk that lists one
// directory at a time (GOMAXPROCS 1): notes in the same order, the same
// refusals, the same incompleteness. That holds where the entry budget runs
// out in a directory listed ahead with more budget than the walk has left
// when it gets there, which is then listed again.
func TestWalkAheadMatchesSequential(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(t *testing.T, dir string)
		// relisted is a directory listed ahead and then again.
		relisted string
	}{
		{"tree", func(t *testing.T, dir string) {
			for _, name := range []string{
				"a.md", "a/x.md", "a/a/y.md", "a/b/z.md", "b/c.md", "b.md", "c/d/e/f.md",
				"closed/hidden.md", "d/.h/no.md", "e/notes.txt", "e/skip.bin", "f/g.md",
			} {
				write(t, filepath.Join(dir, filepath.FromSlash(name)), name+"\n")
			}
			deep := filepath.Join(dir, "g")
			for range MaxDepth + 1 {
				deep = filepath.Join(deep, "d")
			}
			write(t, filepath.Join(deep, "deep.md"), "too deep\n")
			if err := os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(dir, "big", "big.md"), strings.Repeat("x", MaxFileSize+1))
		}, ""},
		{"budget", func(t *testing.T, dir string) {
			// a and b are listed ahead with all but 2 entries of the budget;
			// once a is walked, less is left than b holds.
			for _, sub := range []string{"a", "b"} {
				if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
					t.Fatal(err)
				}
				for i := range MaxEntries/2 + 1000 {
					f, err := os.Create(filepath.Join(dir, sub, fmt.Sprintf("%05d.md", i)))
					if err != nil {
						t.Fatal(err)
					}
					f.Close()
				}
			}
		}, "b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.build(t, dir)
			var (
				mu     sync.Mutex
				listed = map[string]int{}
			)
			r, err := Open(dir, seam.Options{Faults: func(_ context.Context, op seam.Op, name string) error {
				if op != seam.ListDir {
					return nil
				}
				mu.Lock()
				listed[name]++
				mu.Unlock()
				if name == "closed" {
					return fs.ErrPermission
				}
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			walk := func(procs int) *Listing {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				mu.Lock()
				clear(listed)
				mu.Unlock()
				l, err := r.Walk(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				return l
			}
			type view struct {
				Notes      []string
				Skipped    []Skipped
				Incomplete bool
			}
			v := func(l *Listing) view { return view{names(l), l.Skipped, l.Incomplete} }
			seq := v(walk(1))
			ahead := v(walk(4))
			if diff := cmp.Diff(seq, ahead, cmp.Comparer(func(a, b error) bool { return errors.Is(a, b) })); diff != "" {
				t.Errorf("walk listing ahead (-one at a time +ahead):\n%s", diff)
			}
			if tc.relisted != "" && listed[tc.relisted] != 2 {
				t.Errorf("%s listed %d times; want twice: ahead, then again with the budget left", tc.relisted, listed[tc.relisted])
			}
			if tc.name == "budget" && (!seq.Incomplete || len(seq.Notes) != MaxEntries-2) {
				t.Errorf("budget walk: %d notes, incomplete %v; want %d, incomplete", len(seq.Notes), seq.Incomplete, MaxEntries-2)
			}
		})
	}
}

// TestStuckListingAheadIsAbandoned: a directory listed ahead whose listing
// never returns holds the walk no longer than its deadline, and is counted
// as abandoned, beside the walk itself, until the file system answers.
func TestStuckListingAheadIsAbandoned(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	dir := t.TempDir()
	for _, name := range []string{"a/x.md", "b/y.md", "c/z.md"} {
		write(t, filepath.Join(dir, filepath.FromSlash(name)), name+"\n")
	}
	release := make(chan struct{})
	r, err := Open(dir, seam.Options{Faults: func(_ context.Context, op seam.Op, name string) error {
		if op == seam.ListDir && name == "c" {
			<-release // ignores ctx, as a system call would
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := r.Walk(ctx); !errors.Is(err, ErrNotInTime) || time.Since(start) > 2*time.Second {
		t.Fatalf("Walk with a stuck listing ahead = %v after %v; want %v at the deadline", err, time.Since(start), ErrNotInTime)
	}
	waitAbandoned := func(want int64) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for r.abandoned.Load() != want {
			if time.Now().After(deadline) {
				t.Fatalf("%d operations counted as abandoned; want %d", r.abandoned.Load(), want)
			}
			time.Sleep(time.Millisecond)
		}
	}
	waitAbandoned(2) // the walk, and the listing of c
	close(release)
	waitAbandoned(0)
}
