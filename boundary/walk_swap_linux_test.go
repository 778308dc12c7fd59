package boundary

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestWalkNeverEntersSwappedLink walks a root whose directory a/ keeps
// trading places, by renameat2(RENAME_EXCHANGE), with l, a symbolic link
// to its sibling z/: between a directory's lstat and its open, a/ may
// have become the link. No note of z/ may ever be listed, or skipped, under
// a name through a/ or l, whichever way the swap falls, on both ways of opening.
func TestWalkNeverEntersSwappedLink(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a", "z"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			name := filepath.Join(dir, d, fmt.Sprintf("%s%03d.md", d, i))
			if err := os.WriteFile(name, []byte("note\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Symlink("z", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	dirFD, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(dirFD)
	var (
		stop  atomic.Bool
		swaps atomic.Int64
		wg    sync.WaitGroup
	)
	wg.Go(func() {
		for !stop.Load() {
			if err := unix.Renameat2(dirFD, "a", dirFD, "l", unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("renameat2: %v", err)
				return
			}
			swaps.Add(1)
		}
	})
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
	eachOpenPath(t, root, func(t *testing.T) {
		// behind is whether name is a note of z/ reached through a/ or l.
		behind := func(name string) bool {
			return (strings.HasPrefix(name, "a/") || strings.HasPrefix(name, "l/")) && strings.Contains(name, "/z")
		}
		walks, fromA := 0, 0
		for begin := time.Now(); time.Since(begin) < 500*time.Millisecond || walks < 200 || swaps.Load() < 200; walks++ {
			if time.Since(begin) > 20*time.Second {
				t.Fatalf("only %d walks and %d swaps in 20 s", walks, swaps.Load())
			}
			l, err := root.Walk(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range l.Notes {
				if behind(n.Name) {
					t.Fatalf("walk %d listed %s, a note of z/ behind a link", walks, n.Name)
				}
				if strings.HasPrefix(n.Name, "a/") || strings.HasPrefix(n.Name, "l/") {
					fromA++
				}
			}
			for _, s := range l.Skipped {
				if behind(s.Name) {
					t.Fatalf("walk %d skipped %s (%v), a note of z/ behind a link", walks, s.Name, s.Reason)
				}
			}
		}
		t.Logf("%d walks during %d swaps listed %d notes of a/", walks, swaps.Load(), fromA)
		if fromA == 0 {
			t.Error("no walk listed a note of a/: the walks never entered the swapped directory")
		}
	})
}
