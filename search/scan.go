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
	data    []byte  // the storage read into, a grown buffer to keep
	reason  error   // why the note was not searched (a boundary reason), or nil
	err     error   // a failure that ends the call, such as cancellation
}

// bufPool holds read buffers, so a call reads every note afresh without
// allocating for each one. A buffer starts at minReadBuf bytes and grows,
// up to MaxFileSize+1, to the largest note its reader has read, so many
// readers of small notes hold little memory. At most one buffer per
// reader is in use at a time; the pool lets the garbage collector reclaim
// idle ones.
var bufPool = sync.Pool{New: func() any {
	b := make([]byte, 0, minReadBuf)
	return &b
}}

// minReadBuf is a new read buffer's size: a page.
const minReadBuf = 4 << 10

// readersPerP is how many notes are read at once per P (GOMAXPROCS), each
// by a [boundary.Reader] on a goroutine of its own, which also searches
// what it read. Reading a note is mostly system calls: with one reader per
// P, a P often has nothing else to run while its reader's thread is in the
// kernel, and the runtime parks the thread only to wake it again for the
// next note. Results are taken in order, so a note read slowly leaves the
// readers after it idle once they are done; sixteen per P keep every P
// supplied (see docs/bench.md), and the buffers of readers of small notes
// stay small (see bufPool).
const readersPerP = 16

// scan searches the notes notes is fed and hands their results to visit in
// the feed's order, until visit returns true or every note was visited.
// visit must not keep the *fileResult it is given: it is used again.
// Up to readersPerP notes per P, the next ones in the feed's order, are
// read and searched at once, each on its Reader's goroutine, as soon as
// the feed has them; the notes after the one where visit stops may have
// been read, but their results are never used, so the answer is exactly
// that of searching one note after another. scan returns once every read
// it started is done or, when ctx ends, abandoned (see boundary.Reader).
func scan(ctx context.Context, root *boundary.Root, q *Query, notes *feed, visit func(*fileResult) (stop bool)) error {
	width := readersPerP * runtime.GOMAXPROCS(0)
	// A reader's result and the function that records it are made once
	// and used for note after note, not allocated for each.
	type reader struct {
		rd   *boundary.Reader
		buf  readBuf
		res  *fileResult
		done func(text []byte, _ boundary.Stamp, err error)
		busy bool // a read was started and not yet waited for
	}
	readers := make([]reader, width)
	wait := func(r *reader) *fileResult {
		f := r.res
		r.busy = false
		if err := r.rd.Wait(ctx); err != nil {
			// Abandoned: its buffer and result may still be written
			// into, so both are left to it, and its result is this
			// refusal (see boundary.ErrNotInTime).
			r.buf.abandon()
			r.res, r.done = nil, nil
			f = &fileResult{note: f.note}
			var be *boundary.Error
			if errors.As(err, &be) {
				f.reason = be.Reason
			} else {
				f.err = err
			}
		}
		r.buf.keep(f.data)
		f.data = nil
		return f
	}
	defer func() {
		for i := range readers {
			r := &readers[i]
			if r.busy {
				wait(r)
			}
			if r.rd != nil {
				r.rd.Close()
			}
			r.buf.release()
		}
	}()
	started := 0
	for next := 0; ; next++ {
		// Keep width notes in reading, the next ones in order.
		for ; started < next+width; started++ {
			n, ok, err := notes.at(ctx, started)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			r := &readers[started%width]
			if r.rd == nil {
				r.rd = root.NewReader()
			}
			if r.res == nil {
				f := new(fileResult)
				r.res = f
				r.done = func(text []byte, _ boundary.Stamp, err error) { searchText(q, f, text, err) }
			}
			*r.res = fileResult{note: n}
			r.busy = true
			r.rd.Start(ctx, n, r.buf.get(), r.done)
		}
		if next == started {
			return nil
		}
		f := wait(&readers[next%width])
		if f.err != nil {
			return f.err
		}
		if visit(f) {
			return nil
		}
		if (next+1)%feedChunk == 0 {
			notes.release(next + 1)
		}
	}
}

// readBuf is one reader's buffer, taken from bufPool at its first read and
// kept for the rest of the scan, so a scan takes a buffer per reader, not
// per note, from the pool.
type readBuf struct{ b *[]byte }

func (rb *readBuf) get() []byte {
	if rb.b == nil {
		rb.b = bufPool.Get().(*[]byte)
	}
	return *rb.b
}

// keep makes b, the storage a read returned, the buffer, when it is larger:
// the note did not fit.
func (rb *readBuf) keep(b []byte) {
	if rb.b != nil && cap(b) > cap(*rb.b) {
		*rb.b = b[:0]
	}
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

// searchText records in f what reading its note gave, text or the error
// err, and what searching the text found, copied out of the read buffer.
func searchText(q *Query, f *fileResult, text []byte, err error) {
	f.data = text
	if err != nil {
		var be *boundary.Error
		if errors.As(err, &be) {
			f.reason = be.Reason
		} else {
			f.err = err
		}
		return
	}
	passages, more := findPassages(text, true, q, MaxMatches)
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
