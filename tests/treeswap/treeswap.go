//go:build unix

// Package treeswap keeps changing a directory tree while tests read it, to
// race the boundary's checks against every kind of swap. It is test support
// only.
package treeswap

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// growLimit is past the boundary's 100 KiB file limit.
const growLimit = 200 << 10

// Markers in files that must never be returned.
const (
	Secret = "STRESS-OUTSIDE-SECRET"
	Big    = "STRESS-BIG-FILE"
)

// StableText is the text of stable.md, which swap.md is sometimes a link
// to: read as swap.md, it was read through a link.
const StableText = "needle stable\n"

// Swapper keeps changing a tree under a root until stopped: a note is
// replaced in turn by a regular file, a link to a file outside, a FIFO, a
// directory, a 10 MB file, a hard link to a file outside, a link to
// /dev/zero and a link to another note; another note is truncated and grown in place past the size
// limit; a directory is swapped for a link to a directory outside; and
// flip.md keeps turning into a link to stable.md and back.
type Swapper struct {
	base string
	// Root is the directory to serve; it holds stable.md, swap.md,
	// flip.md, grow.md and sub/inner.md, each containing "needle".
	Root   string
	rounds atomic.Int64
	stop   chan struct{}
	done   chan struct{}
	errs   chan error
}

// New builds the tree under a new temporary directory. Call Start to begin
// changing it.
func New(t testing.TB) *Swapper {
	t.Helper()
	base := t.TempDir()
	s := &Swapper{base: base, Root: filepath.Join(base, "root"), stop: make(chan struct{}), done: make(chan struct{}), errs: make(chan error, 1)}
	mk := func(name, text string) {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("outside/secret.md", "needle "+Secret+"\n")
	mk("outside/inner.md", "needle "+Secret+"\n")
	bigLine := "needle " + Big + "\n"
	mk("staging/big.md", strings.Repeat(bigLine, 10<<20/len(bigLine)+1)) // over 10 MB
	mk("root/stable.md", StableText)
	mk("root/swap.md", "needle swap\n")
	mk("root/grow.md", "needle grow\n")
	mk("root/flip.md", "needle flip\n")
	mk("root/sub/inner.md", "needle inner\n")
	return s
}

// Path returns the path of name, slash-separated and relative to the
// directory that holds the root, "outside" and "staging".
func (s *Swapper) Path(name string) string { return filepath.Join(s.base, filepath.FromSlash(name)) }

// run mutates the tree until stop is closed.
func (s *Swapper) run() {
	defer close(s.done)
	fail := func(err error) {
		select {
		case s.errs <- err:
		default:
		}
	}
	flipped := make(chan struct{})
	go func() {
		defer close(flipped)
		if err := s.flip(); err != nil {
			fail(err)
		}
	}()
	defer func() { <-flipped }()
	swap := s.Path("root/swap.md")
	steps := []func() error{
		func() error { return os.WriteFile(swap, []byte("needle swap\n"), 0o644) },
		func() error { return os.Symlink(s.Path("outside/secret.md"), swap) },
		func() error { return os.Symlink("../outside/secret.md", swap) },
		func() error { return syscall.Mkfifo(swap, 0o644) },
		func() error {
			if err := os.Mkdir(swap, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(swap, "x.md"), []byte("needle in a directory\n"), 0o644)
		},
		func() error { return os.Rename(s.Path("staging/big.md"), swap) },
		func() error { return os.Link(s.Path("outside/secret.md"), swap) },
		func() error { return os.Symlink("/dev/zero", swap) },
		// A link inside the root is not followed either: a read of swap.md
		// must never return stable.md's text.
		func() error { return os.Symlink("stable.md", swap) },
		func() error { return os.WriteFile(swap, []byte("needle swap\n"), 0o644) },
		func() error { return os.Symlink("stable.md", swap) },
	}
	grow := s.Path("root/grow.md")
	for i := 0; ; i++ {
		select {
		case <-s.stop:
			return
		default:
		}
		// Put the big file back in staging if it is in place; clear the name.
		if info, err := os.Lstat(swap); err == nil && info.Mode().IsRegular() && info.Size() > growLimit {
			if err := os.Rename(swap, s.Path("staging/big.md")); err != nil {
				fail(err)
				return
			}
		}
		if err := os.RemoveAll(swap); err != nil {
			fail(err)
			return
		}
		if err := steps[i%len(steps)](); err != nil {
			fail(err)
			return
		}
		// Truncate and grow a note in place, past the limit and back.
		f, err := os.OpenFile(grow, os.O_WRONLY, 0)
		if err != nil {
			fail(err)
			return
		}
		f.Truncate(0)
		f.WriteAt([]byte("needle grow\n"), 0)
		filler := bytes.Repeat([]byte("grow filler\n"), 4096)
		for off := int64(12); off < growLimit+int64(len(filler)); off += int64(len(filler)) {
			f.WriteAt(filler, off)
		}
		f.Truncate(int64(12 + (i%7)*100))
		f.Close()
		// Swap a directory for a link to a directory outside, and back.
		if i%2 == 0 {
			if err := os.Rename(s.Path("root/sub"), s.Path("staging/sub")); err != nil {
				fail(err)
				return
			}
			if err := os.Symlink("../outside", s.Path("root/sub")); err != nil {
				fail(err)
				return
			}
		} else {
			if err := os.Remove(s.Path("root/sub")); err != nil {
				fail(err)
				return
			}
			if err := os.Rename(s.Path("staging/sub"), s.Path("root/sub")); err != nil {
				fail(err)
				return
			}
		}
		s.rounds.Add(1)
	}
}

// flip swaps flip.md between a regular file and a link to stable.md as
// fast as it can, each time by an atomic rename, until stop, so that reads
// of flip.md race the change between their checks and their open.
func (s *Swapper) flip() error {
	flip, link, file := s.Path("root/flip.md"), s.Path("root/.flip-link"), s.Path("root/.flip-file")
	for {
		select {
		case <-s.stop:
			return nil
		default:
		}
		if err := os.Symlink("stable.md", link); err != nil {
			return err
		}
		if err := os.Rename(link, flip); err != nil {
			return err
		}
		if err := os.WriteFile(file, []byte("needle flip\n"), 0o644); err != nil {
			return err
		}
		if err := os.Rename(file, flip); err != nil {
			return err
		}
	}
}

// Start changes the tree on a goroutine until Finish, or the end of the test.
func (s *Swapper) Start(t testing.TB) {
	go s.run()
	t.Cleanup(func() {
		select {
		case <-s.stop:
		default:
			close(s.stop)
		}
		<-s.done
	})
}

// Finish stops the changes and fails the test if one of them failed.
func (s *Swapper) Finish(t testing.TB) {
	close(s.stop)
	<-s.done
	select {
	case err := <-s.errs:
		t.Fatalf("changing the tree: %v", err)
	default:
	}
}

// Rounds reports how many full rounds of changes have been made.
func (s *Swapper) Rounds() int64 { return s.rounds.Load() }
