package boundary

import "context"

// A Reader reads notes one after another into buffers its caller reuses,
// on a goroutine of its own that is kept from one read to the next. Like
// [Root.ReadNote], a read returns by ctx's deadline even when the file
// system never answers; keeping the goroutine makes that cost a hand-over
// per note rather than a new goroutine, which matters to a search reading
// thousands of notes. With [Reader.Start] the caller's own work on what was
// read runs on that goroutine too, while the caller goes on. A Reader is
// not safe for concurrent use; Close it when done.
type Reader struct {
	root    *Root
	w       *readWorker // nil before the first read and after one is abandoned
	waiting bool        // a read started on w is not yet waited for
	name    string      // of that read
}

// NewReader returns a Reader of notes under r.
func (r *Root) NewReader() *Reader { return &Reader{root: r} }

// readWorker is the goroutine of a Reader, each read on it a call.
type readWorker struct {
	req chan readReq
	c   *call
}

type readReq struct {
	ctx  context.Context
	note Note
	buf  []byte
	then func([]byte, Stamp, error)
}

// Read returns the contents of the note n, read into buf's
// storage when it is large enough: with a capacity of at least
// [MaxFileSize]+1 it never allocates, and with one larger than the note's
// size it does not for that note; otherwise the contents are read into
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
	var (
		data []byte
		st   Stamp
		rerr error
	)
	rd.Start(ctx, n, buf, func(d []byte, s Stamp, err error) { data, st, rerr = d, s, err })
	if err := rd.Wait(ctx); err != nil {
		return nil, Stamp{}, err
	}
	return data, st, rerr
}

// Start is the first half of [Reader.Read]: it starts reading n into buf,
// and then calls then with what Read would return, on the Reader's
// goroutine once the read is done, or at once on the caller's when the read
// is refused before the file system is touched. The caller must call
// [Reader.Wait] before it starts another read or uses what then did. then
// must not keep the contents: they alias buf.
func (rd *Reader) Start(ctx context.Context, n Note, buf []byte, then func([]byte, Stamp, error)) {
	r, name := rd.root, n.Name
	if err := r.startRead(ctx, name); err != nil {
		then(nil, Stamp{}, err)
		return
	}
	if ctx.Done() == nil {
		var st Stamp
		data, err := r.readNote(ctx, name, n.seen, buf, &st) // nothing can end the wait
		then(data, st, err)
		return
	}
	if !r.mayStart() {
		then(nil, Stamp{}, refuse(name, ErrNotInTime, ErrNotInTime))
		return
	}
	w := rd.w
	if w == nil {
		w = &readWorker{req: make(chan readReq), c: r.newCall()}
		go w.run(r)
		rd.w = w
	}
	w.c.reuse()
	rd.waiting, rd.name = true, name
	w.req <- readReq{ctx, n, buf, then}
}

// Wait waits until the read Start began, and its then, are done, and
// returns nil; or, when ctx ends first, it abandons the read and returns
// the refusal Read would, with [ErrNotInTime]: the read's then may still run
// later, and its buffer must not be used again. A panic in then is raised
// again here.
func (rd *Reader) Wait(ctx context.Context) error {
	if !rd.waiting {
		return nil
	}
	rd.waiting = false
	if err := rd.w.c.wait(ctx); err != nil {
		// The worker ends when its read returns; the next read starts
		// another.
		close(rd.w.req)
		rd.w = nil
		return notInTime(rd.name, err)
	}
	return nil
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
			q.then(data, st, err)
		}) {
			return // abandoned: nobody waits for what then did
		}
	}
}
