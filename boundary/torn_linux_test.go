package boundary

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tornSize is the size of every version of the note the torn-read tests
// write: more than a page, so a read can meet a write between pages.
const tornSize = 5329

// tornVersion is version v of that note: tornSize bytes, each the letter
// of its version, so a read holding two letters, or fewer bytes than a
// version, holds part of two writes.
func tornVersion(v int) []byte {
	return bytes.Repeat([]byte{byte('a' + v%26)}, tornSize)
}

// TestNoTornRead rewrites one note as fast as it can while reading it, and
// checks that every read returns one whole version, or nothing (a truncate
// is a write too, and what it leaves is an empty note), or is refused as
// changing. On Linux 6.13 and later a truncate followed by a write within
// one clock tick leaves the times as the truncate set them, so a read that
// met the write half done, and found the times and the size as they were
// before it, returned a prefix of one version (0.5 to 0.9% of reads here)
// until such a recent note was read twice and the reads compared.
func TestNoTornRead(t *testing.T) {
	writers := []struct {
		name  string
		write func(name string, data []byte) error
	}{
		{"truncate and write", func(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }},
		{"overwrite in place", overwriteNote},
	}
	readers := []struct {
		name string
		read func(*testing.T, *Root) ([]byte, error)
	}{
		{"ReadNote", func(t *testing.T, r *Root) ([]byte, error) {
			return r.ReadNote(context.Background(), "note.md")
		}},
		{"Reader after a walk", func(t *testing.T, r *Root) ([]byte, error) {
			l, err := r.Walk(context.Background())
			if err != nil {
				return nil, err
			}
			if len(l.Notes) != 1 {
				return nil, errNotListed
			}
			rd := r.NewReader()
			defer rd.Close()
			data, _, err := rd.Read(context.Background(), l.Notes[0], nil)
			return data, err
		}},
	}
	for _, w := range writers {
		for _, rd := range readers {
			t.Run(w.name+"/"+rd.name, func(t *testing.T) {
				reads, whole, torn, changing := tornRun(t, w.write, rd.read)
				t.Logf("%d reads: %d whole versions, %d refused as changing, %d torn", reads, whole, changing, torn)
				if torn > 0 {
					t.Errorf("%d of %d reads returned part of one write and part of another", torn, reads)
				}
				if whole < 100 {
					t.Errorf("only %d reads returned a whole version; the test checked too little", whole)
				}
			})
		}
	}
}

var errNotListed = errors.New("the note was not listed")

// tornRun rewrites note.md with write, from a goroutine of its own, while
// it reads it with read, and counts the reads.
func tornRun(t *testing.T, write func(string, []byte) error, read func(*testing.T, *Root) ([]byte, error)) (reads, whole, torn, changing int) {
	dir := t.TempDir()
	name := filepath.Join(dir, "note.md")
	if err := os.WriteFile(name, tornVersion(0), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var (
		stop atomic.Bool
		wg   sync.WaitGroup
	)
	wg.Go(func() {
		for v := 1; !stop.Load(); v++ {
			if err := write(name, tornVersion(v)); err != nil {
				t.Error(err)
				return
			}
		}
	})
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
	// At least 400 ms, 2,000 reads and 100 whole versions read (a loaded
	// machine may need longer for those), but no more than 5 s.
	begin := time.Now()
	for ; time.Since(begin) < 400*time.Millisecond || reads < 2000 || whole < 100; reads++ {
		if time.Since(begin) > 5*time.Second {
			break
		}
		data, err := read(t, root)
		switch {
		case errors.Is(err, errChanging) || errors.Is(err, errNotListed):
			changing++
		case err != nil:
			t.Fatalf("refused for another reason: %v", err)
		case len(data) == 0:
		case len(data) == tornSize && bytes.Count(data, data[:1]) == tornSize:
			whole++
		default:
			if torn < 5 {
				t.Logf("torn: %d bytes, starting %q, ending %q", len(data), data[:1], data[len(data)-1:])
			}
			torn++
		}
	}
	return reads, whole, torn, changing
}

// overwriteNote writes data over the start of the file name in one write,
// in place, without truncating it.
func overwriteNote(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
