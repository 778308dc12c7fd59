package boundary

import "context"

// A Reader reads notes one after another into buffers its caller reuses,
// on a goroutine of its own that is kept from one read to the next. Like
// [Root.ReadNote], a read returns by ctx's deadline even when the file
// system never answers; keeping the goroutine makes that cost a hand-over
// per note rather than a new goroutine, which matters to a search reading
// thousands of notes. A Reader is not safe for concurrent use; Close it
// when done.
type Reader struct {
	root *Root
	w    *readWorker // nil before the first read and after one is abandoned
}

// NewReader returns a Reader of notes under r.
func (r *Root) NewReader() *Reader { return &Reader{root: r} }

// readWorker is the goroutine of a Reader, each read on it a call.
type readWorker struct {
	req chan readReq
	c   *call
	res readResp // of the last read, for its caller once c's token is sent
}

type readReq struct {
	ctx  context.Context
	note Note
	buf  []byte
}

type readResp struct {
	data  []byte
	stamp Stamp
	err   error
}

// Read returns the contents of the note n, read into buf's
// storage when it is large enough: with a capacity of at least
// [MaxFileSize]+1 it never allocates; otherwise the contents are read into
// new memory. The result aliases buf when it fits, so it is only valid
// until buf is reused. Every check of [Root.ReadNote] applies to n.Name,
// and a Note from a walk spares one of them when the file read is the one
// the walk saw, unchanged. The
// [Stamp] returned with the contents is the note's, taken before it was
// read, or the zero Stamp where none is given.
//
// When the read is refused with [ErrNotInTime], the abandoned read may
// still write into buf's storage later: buf must not be used again. Such a
// refusal also matches ctx's error with [errors.Is].
func (rd *Reader) Read(ctx context.Context, n Note, buf []byte) ([]byte, Stamp, error) {
	r, name := rd.root, n.Name
	if err := r.startRead(ctx, name); err != nil {
		return nil, Stamp{}, err
	}
	if ctx.Done() == nil {
		var st Stamp
		data, err := r.readNote(ctx, name, n.seen, buf, &st) // nothing can end the wait
		return data, st, err
	}
	if !r.mayStart() {
		return nil, Stamp{}, refuse(name, ErrNotInTime, ErrNotInTime)
	}
	w := rd.w
	if w == nil {
		w = &readWorker{req: make(chan readReq), c: r.newCall()}
		go w.run(r)
		rd.w = w
	}
	w.c.reuse()
	w.req <- readReq{ctx, n, buf}
	if err := w.c.wait(ctx); err != nil {
		// The worker ends when its read returns; the next read starts
		// another.
		close(w.req)
		rd.w = nil
		return nil, Stamp{}, notInTime(name, err)
	}
	res := w.res
	w.res = readResp{}
	return res.data, res.stamp, res.err
}

// Close ends the Reader's goroutine, or lets an abandoned one end when its
// read returns.
func (rd *Reader) Close() {
	if rd.w != nil {
		close(rd.w.req)
		rd.w = nil
	}
}

// run serves reads until req is closed or a read is abandoned.
func (w *readWorker) run(r *Root) {
	for q := range w.req {
		if !w.c.run(func() {
			var st Stamp
			data, err := r.readNote(q.ctx, q.note.Name, q.note.seen, q.buf, &st)
			w.res = readResp{data: data, stamp: st, err: err}
		}) {
			return // abandoned: nobody waits for w.res
		}
	}
}
