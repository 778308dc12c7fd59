package search

import (
	"context"
	"sync"

	"practice-notes/boundary"
)

// A feed hands the notes a walk finds to a scan as they are found, in the
// walk's order, so that reading starts before the walk ends. It holds
// every note added and not yet released; nothing is dropped when the scan
// falls behind.
//
// Notes are kept in chunks of feedChunk, so a growing feed never copies
// what it holds, and the chunks a scan has gone past are given back to a
// pool for the next call: a call over 50,000 notes otherwise allocates
// five times their size as one slice grows.
type feed struct {
	mu      sync.Mutex
	chunks  []*noteChunk // chunks[k] holds notes from (dropped+k)*feedChunk
	dropped int          // chunks released from the front
	n       int          // notes added
	done    bool
	closed  bool          // chunks were given back; add does nothing
	more    chan struct{} // holds a token after notes grew or done was set
}

// feedChunk is how many notes a chunk holds: 32 KiB of them.
const feedChunk = 512

type noteChunk [feedChunk]boundary.Note

var chunkPool = sync.Pool{New: func() any { return new(noteChunk) }}

func newFeed() *feed { return &feed{more: make(chan struct{}, 1)} }

// add appends n; it never blocks for long.
func (f *feed) add(n boundary.Note) {
	f.mu.Lock()
	if f.closed {
		// A walk abandoned at the deadline may still yield notes.
		f.mu.Unlock()
		return
	}
	i := f.n - f.dropped*feedChunk
	if i == len(f.chunks)*feedChunk {
		f.chunks = append(f.chunks, chunkPool.Get().(*noteChunk))
	}
	f.chunks[i/feedChunk][i%feedChunk] = n
	f.n++
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
// ctx ends first. One goroutine at a time may wait in at. i must not have
// been released.
func (f *feed) at(ctx context.Context, i int) (boundary.Note, bool, error) {
	for {
		f.mu.Lock()
		n, have, done := boundary.Note{}, i < f.n, f.done
		if have {
			n = f.get(i)
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

// get returns note i; f.mu is held.
func (f *feed) get(i int) boundary.Note {
	i -= f.dropped * feedChunk
	return f.chunks[i/feedChunk][i%feedChunk]
}

// release says the notes before index i are no longer needed: the chunks
// that hold only such notes go back to the pool.
func (f *feed) release(i int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	k := min(max(i/feedChunk-f.dropped, 0), len(f.chunks))
	giveBack(f.chunks[:k])
	f.chunks = f.chunks[k:]
	f.dropped += k
}

// from returns the notes added from index i on, which must not have been
// released; it is for after finish.
func (f *feed) from(i int) []boundary.Note {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]boundary.Note, 0, max(f.n-i, 0))
	for ; i < f.n; i++ {
		out = append(out, f.get(i))
	}
	return out
}

// close gives every chunk back to the pool; notes added after are
// dropped.
func (f *feed) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	giveBack(f.chunks)
	f.chunks, f.closed = nil, true
}

// giveBack puts chunks in the pool, emptied: the pool must not keep the
// names alive.
func giveBack(chunks []*noteChunk) {
	for _, c := range chunks {
		clear(c[:])
		chunkPool.Put(c)
	}
}
