package search

import (
	"context"
	"errors"
	"runtime"
	"sync"

	"practice-notes/boundary"
)

// fileResult is what searching one note gave.
type fileResult struct {
	note    boundary.Note
	matches []Match // at most MaxMatches, copied out of the read buffer
	more    bool    // the note holds more than MaxMatches passages
	reason  error   // why the note was not searched (a boundary reason), or nil
	err     error   // a failure that ends the call, such as cancellation
	// panicked is a panic raised while searching the note on a worker
	// goroutine; scan raises it again on its caller's goroutine.
	panicked any
	done     chan struct{}
}

// bufPool holds read buffers of MaxFileSize+1 bytes, so a call reads every
// note afresh without allocating for each one. At most one buffer per
// worker is in use at a time; the pool lets the garbage collector reclaim
// idle ones.
var bufPool = sync.Pool{New: func() any {
	b := make([]byte, 0, boundary.MaxFileSize+1)
	return &b
}}

// lookahead is how many notes, per P (GOMAXPROCS), may be searched ahead
// of the first one whose result has not yet been used. It bounds the
// results held in memory while keeping every core busy when one note is
// slow.
const lookahead = 16

// readersPerP is how many notes are read at once per P. Reading a note is
// mostly system calls and a hand-over to its Reader's goroutine, during
// which the goroutine that asked waits: with one reader per P, a P often
// has nothing else to run, and the runtime parks its thread only to wake
// it again for the next note. Four per P keep every P supplied: the first
// call over 5,000 notes is about a fifth faster than with one per P (see
// docs/bench.md).
const readersPerP = 4

// scan searches the notes notes is fed and hands their results to visit in
// the feed's order, until visit returns true or every note was visited.
// Notes are read and searched on readersPerP goroutines per P as soon as
// the feed has them; the notes after the one where visit stops may have
// been read, but their results are never used, so the answer is exactly
// that of searching one note after another. scan returns only once no
// goroutine it started is still running.
func scan(ctx context.Context, root *boundary.Root, q *Query, notes *feed, visit func(*fileResult) (stop bool)) error {
	procs := runtime.GOMAXPROCS(0)
	workers := readersPerP * procs
	if procs <= 1 {
		rd := root.NewReader()
		defer rd.Close()
		var buf readBuf
		defer buf.release()
		for i := 0; ; i++ {
			n, ok, err := notes.at(ctx, i)
			if err != nil {
				return err
			}
			if !ok {
				return nil
			}
			f := fileResult{note: n}
			searchFile(ctx, rd, &buf, q, &f)
			if f.err != nil {
				return f.err
			}
			if visit(&f) {
				return nil
			}
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	order := make(chan *fileResult, procs*lookahead)
	jobs := make(chan *fileResult, workers)
	wg.Add(1 + workers)
	go func() { // dispatch in the feed's order
		defer wg.Done()
		defer close(jobs)
		defer close(order)
		for i := 0; ; i++ {
			n, ok, err := notes.at(ctx, i)
			if err != nil || !ok {
				return
			}
			f := &fileResult{note: n, done: make(chan struct{})}
			select {
			case order <- f:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- f:
			case <-ctx.Done():
				f.err = ctx.Err()
				close(f.done)
				return
			}
		}
	}()
	for range workers {
		go func() {
			defer wg.Done()
			rd := root.NewReader()
			defer rd.Close()
			var buf readBuf
			defer buf.release()
			for f := range jobs {
				if err := ctx.Err(); err != nil {
					f.err = err
				} else {
					searchFileRecover(ctx, rd, &buf, q, f)
				}
				close(f.done)
			}
		}()
	}
	for f := range order {
		// Every note in order is done promptly once ctx ends: a worker
		// gives it up or the dispatcher does, and a read the file system
		// does not answer is abandoned (see boundary.ErrNotInTime), so the
		// note being read when time runs out is reported as such.
		<-f.done
		if f.panicked != nil {
			panic(f.panicked)
		}
		if f.err != nil {
			return f.err
		}
		if visit(f) {
			return nil
		}
	}
	return ctx.Err()
}

// searchFileRecover is searchFile for a worker goroutine. A panic there
// would end the process, since nothing up the goroutine's stack recovers
// it; it is kept in f instead, and scan raises it again on the caller's
// goroutine, where the server's handlers recover from panics.
func searchFileRecover(ctx context.Context, rd *boundary.Reader, buf *readBuf, q *Query, f *fileResult) {
	defer func() {
		if v := recover(); v != nil {
			f.panicked = v
		}
	}()
	searchFile(ctx, rd, buf, q, f)
}

// readBuf is one goroutine's read buffer, taken from bufPool at its first
// read and kept for the rest of the scan, so a scan takes a buffer per
// goroutine, not per note, from the pool.
type readBuf struct{ b *[]byte }

func (rb *readBuf) get() []byte {
	if rb.b == nil {
		rb.b = bufPool.Get().(*[]byte)
	}
	return *rb.b
}

// abandon forgets the buffer: an abandoned read may still write into it,
// so it is left to the garbage collector, never reused.
func (rb *readBuf) abandon() { rb.b = nil }

// release gives the buffer back to bufPool.
func (rb *readBuf) release() {
	if rb.b != nil {
		bufPool.Put(rb.b)
		rb.b = nil
	}
}

// searchFile reads one note afresh into buf and searches it, copying what
// it returns out of the buffer.
func searchFile(ctx context.Context, rd *boundary.Reader, buf *readBuf, q *Query, f *fileResult) {
	text, _, err := rd.Read(ctx, f.note, buf.get())
	if errors.Is(err, boundary.ErrNotInTime) {
		buf.abandon()
	}
	if err != nil {
		var be *boundary.Error
		if errors.As(err, &be) {
			f.reason = be.Reason
		} else {
			f.err = err
		}
		return
	}
	passages, more := findPassages(text, q, MaxMatches)
	f.more = more
	if len(passages) > 0 {
		f.matches = make([]Match, len(passages))
		for i, p := range passages {
			f.matches[i] = Match{
				File:    f.note.Name,
				NoteID:  p.NoteID,
				Line:    p.Line,
				Passage: string(text[p.Start:p.End]),
				Clipped: p.Clipped,
			}
		}
	}
}
