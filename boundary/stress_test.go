//go:build unix

package boundary

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"practice-notes/tests/treeswap"
)

// TestStressReadsDuringSwaps walks and reads the root from many goroutines
// while the tree keeps changing: no read returns a byte from outside the
// root or from the 10 MB file, every refusal is a known reason, and no call
// blocks.
func TestStressReadsDuringSwaps(t *testing.T) {
	s := treeswap.New(t)
	root, err := Open(s.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	s.Start(t)
	// At least this many calls, and on until the tree has changed
	// minRounds times (or 10s have passed), so reads race every kind of swap.
	calls, minRounds := 1000, int64(100)
	if testing.Short() {
		calls, minRounds = 200, 24
	}
	begin := time.Now()
	more := func(n int64) bool {
		return n <= int64(calls) || s.Rounds() < minRounds && time.Since(begin) < 10*time.Second
	}
	known := []error{ErrNotFound, errSymlink, errHardLinks, errTooLarge, errNotRegular, errNotText, errUnreadable, errChanging, errReplaced, errDirReplaced}
	var (
		wg      sync.WaitGroup
		next    atomic.Int64
		reads   atomic.Int64
		refused sync.Map // reason → true
		failed  = make(chan string, 1)
	)
	report := func(msg string) {
		select {
		case failed <- msg:
		default:
		}
	}
	for range 8 {
		wg.Go(func() {
			for more(next.Add(1)) {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				listing, err := root.Walk(ctx)
				if err != nil {
					report("Walk: " + err.Error())
					cancel()
					return
				}
				names := append([]string{"swap.md", "flip.md", "flip.md", "flip.md", "grow.md", "sub/inner.md", "swap.md/x.md"}, names(listing)...)
				for _, name := range names {
					start := time.Now()
					data, err := root.ReadNote(ctx, name)
					// A blocked read would take the whole 5 s; a loaded
					// machine under -race can take a second for a slow one.
					if d := time.Since(start); d > 3*time.Second {
						report(name + ": a read took " + d.String())
					}
					if err != nil {
						var be *Error
						if !errors.As(err, &be) || !containsErr(known, be.Reason) {
							report(name + ": unexpected error " + err.Error())
						} else {
							refused.Store(be.Reason, true)
						}
						continue
					}
					reads.Add(1)
					if (name == "swap.md" || name == "flip.md") && string(data) == treeswap.StableText {
						report(name + ": read stable.md through a link")
					}
					if bytes.Contains(data, []byte(treeswap.Secret)) || bytes.Contains(data, []byte(treeswap.Big)) {
						report(name + ": returned bytes from outside the root or from the 10 MB file")
					}
					if len(data) > MaxFileSize {
						report(name + ": returned more than the limit")
					}
				}
				cancel()
			}
		})
	}
	wg.Wait()
	s.Finish(t)
	select {
	case msg := <-failed:
		t.Fatal(msg)
	default:
	}
	var reasons []string
	refused.Range(func(k, _ any) bool { reasons = append(reasons, k.(error).Error()); return true })
	t.Logf("%d calls, %d tree changes, %d notes read, refusals seen: %q", next.Load()-8, s.Rounds(), reads.Load(), reasons)
	if s.Rounds() < minRounds/2 {
		t.Errorf("only %d tree changes happened during the test; the swaps did not race the reads", s.Rounds())
	}
}
