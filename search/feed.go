package search

import (
	"context"
	"sync"

	"practice-notes/boundary"
)

// A feed hands the notes a walk finds to a scan as they are found, in the
// walk's order, so that reading starts before the walk ends. It holds
// every note added; nothing is dropped when the scan falls behind.
type feed struct {
	mu    sync.Mutex
	notes []boundary.Note
	done  bool
	more  chan struct{} // holds a token after notes grew or done was set
}

func newFeed() *feed { return &feed{more: make(chan struct{}, 1)} }

// add appends n; it never blocks for long.
func (f *feed) add(n boundary.Note) {
	f.mu.Lock()
	f.notes = append(f.notes, n)
	f.mu.Unlock()
	f.signal()
}

// finish says no note will be added.
func (f *feed) finish() {
	f.mu.Lock()
	f.done = true
	f.mu.Unlock()
	f.signal()
}

func (f *feed) signal() {
	select {
	case f.more <- struct{}{}:
	default:
	}
}

// at returns the note at index i, waiting for the walk to find it. It
// returns false when the walk ended with fewer notes, and ctx's error when
// ctx ends first. One goroutine at a time may wait in at.
func (f *feed) at(ctx context.Context, i int) (boundary.Note, bool, error) {
	for {
		f.mu.Lock()
		n, have, done := boundary.Note{}, i < len(f.notes), f.done
		if have {
			n = f.notes[i]
		}
		f.mu.Unlock()
		if have || done {
			return n, have, nil
		}
		select {
		case <-f.more:
		case <-ctx.Done():
			return n, false, ctx.Err()
		}
	}
}

// all returns the notes added; it is for after finish.
func (f *feed) all() []boundary.Note {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.notes
}
