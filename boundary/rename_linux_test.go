package boundary

import (
	"context"
	"errors"
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

// TestRenamedOverIsFound replaces one note by another file, as editors
// save with rename(2), as fast as it can while reading it: the note is there all along, so every
// read returns one whole version of it, never "no such note". A read that
// opened one version and found another at the name when it checked it was
// refused as missing (one or two reads in a thousand here), until such a read
// opened the note again.
func TestRenamedOverIsFound(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "note.md")
	version := func(v int) []byte { return []byte(strings.Repeat(fmt.Sprintf("version %06d\n", v), 100)) }
	if err := os.WriteFile(name, version(0), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var (
		stop    atomic.Bool
		renames atomic.Int64
		wg      sync.WaitGroup
	)
	// The other version waits under another name, and the two trade
	// places: to a reader it is the note replaced by rename(2), without the
	// data flush ext4 makes on each rename over a file, which would let the
	// writer rename only about a hundred times a second here.
	other := name + ".tmp"
	if err := os.WriteFile(other, version(1), 0o644); err != nil {
		t.Fatal(err)
	}
	dirFD, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(dirFD)
	wg.Go(func() {
		for !stop.Load() {
			if err := unix.Renameat2(dirFD, "note.md.tmp", dirFD, "note.md", unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("renameat2: %v", err)
				return
			}
			renames.Add(1)
			// A note saved a few hundred times a second (a sleep takes a
			// millisecond or more): far more often than an editor saves.
			time.Sleep(200 * time.Microsecond)
		}
	})
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
	reads, refused := 0, map[string]int{}
	rd := root.NewReader()
	defer rd.Close()
	// At least 400 ms, 2,000 reads and 100 renames (a loaded machine may
	// need longer for those), but no more than 5 s.
	begin := time.Now()
	for ; time.Since(begin) < 400*time.Millisecond || reads < 2000 || renames.Load() < 100; reads++ {
		if time.Since(begin) > 5*time.Second {
			break
		}
		var (
			data []byte
			err  error
		)
		if reads%2 == 0 {
			data, err = root.ReadNote(context.Background(), "note.md")
		} else {
			var l *Listing
			if l, err = root.Walk(context.Background()); err == nil && len(l.Notes) == 1 {
				data, _, err = rd.Read(context.Background(), l.Notes[0], nil)
			} else if err == nil {
				err = errors.New("the note was not listed")
			}
		}
		if err != nil {
			refused[err.Error()]++
			continue
		}
		if len(data) != len(version(0)) || strings.Count(string(data), string(data[:15])) != 100 {
			t.Fatalf("read %d bytes, not one whole version: %.40q", len(data), data)
		}
	}
	t.Logf("%d reads during %d renames", reads, renames.Load())
	for reason, n := range refused {
		t.Errorf("%d of %d reads refused: %s", n, reads, reason)
	}
	if renames.Load() < 100 {
		t.Errorf("only %d renames during the reads; the test checked too little", renames.Load())
	}
}
