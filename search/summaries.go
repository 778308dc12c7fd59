package search

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"practice-notes/boundary"
)

// maxSummaryBytes is the most heap summaries take: each takes its filter,
// sized to its note's text (see newFilter), its name, and summaryBytes
// besides (see summaryStore; TestSummariesCapAndMemory measures it): about
// 190 bytes for a note of 300 bytes, 640 for one of 4 KB, 1.15 KiB for
// one of 8 KB or more, so 10 MiB hold the summaries of 55,000 notes of
// 300 bytes, more than the walk lists, 16,000 of 4 KB or 9,000 of 8 KB
// and more. Notes beyond it are read on every call, and memory stays flat
// however large the folder grows.
const (
	maxSummaryBytes = 10 << 20
	// minSummaryBytes is the least a summary takes, its name aside.
	minSummaryBytes = minFilterBits/8 + summaryBytes
)

// A summary is checked against a fresh read on a schedule, for the changes
// no Stamp shows (see boundary.Stamp): between calls, the summaries whose
// read is older than recheckAge are read again, oldest first, at most
// recheckBatch after each call; and a call never uses a summary whose read
// is older than maxSummaryAge, but reads the note instead. So a change that
// no Stamp shows is seen by every answer given more than maxSummaryAge
// after it was made.
const (
	recheckAge    = 2 * time.Minute
	maxSummaryAge = 4 * time.Minute
	recheckBatch  = 256
)

// summaries keeps, across the calls of one [Searcher], a filter of
// what each note can match (see filter), so that a call skips the notes
// that cannot match the query without reading them. It guarantees that a
// call's answer is the one reading every note afresh would give:
//
//   - a summary is used only while the note's [boundary.Stamp] from this
//     call's walk equals the one taken when the summary was made, so a
//     note changed in any way since is read again; notes without a Stamp
//     (too recently changed, or on a file system whose times are not
//     trusted) are always read;
//   - a summary is used for at most maxSummaryAge after the read it was
//     made from, and checked against a fresh read before that (recheckAge),
//     so a change that moves no time, which no Stamp can show, is missed
//     for a bounded time only;
//   - a summary only ever lets a note be skipped as holding no match; the
//     walk still decides, on every call, which files are notes and which
//     are refused, and a note that would be refused on reading (such as
//     one that is not text) is never summarised, so it is read and
//     refused every time.
//
// Summaries are made between calls, not during them: after a call, one
// goroutine reads the notes that lacked a current summary, stopping as soon
// as another call starts, so the work never delays an answer; before the
// first call, prepare does the same for every note. It is safe for
// concurrent use; Close it before closing the root it reads.
type summaries struct {
	ctx context.Context // ended by Close
	// epoch is when the summaries were made; a summary's read is kept as
	// the monotonic time since, 8 bytes rather than a time.Time's 24.
	epoch  time.Time
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	notes *summaryStore
	// pending names the notes the last call found without a current
	// summary: names only, 16 bytes each however many, and a read of one
	// looks its name up again.
	pending  []string
	calls    int    // calls in progress
	gen      uint64 // calls begun
	building bool   // the goroutine making summaries runs
	limit    int    // most notes summarised: boundary.MaxEntries, lower in tests
	budget   int    // most bytes summaries take: maxSummaryBytes, lower in tests
	bytes    int    // bytes the summaries take (see cost)
	// The schedule of checks (see recheckAge), shorter in tests.
	recheck, maxAge time.Duration
	batch           int
	// nextCheck is when a summary may next be due for a check: no summary
	// is before it, so a call's end need not look at each (see due).
	nextCheck time.Time
	// stopPrepare ends the walk prepare makes; a call that begins while
	// it runs calls it, so the walk never competes with the call.
	stopPrepare context.CancelFunc
}

// newSummaries returns an empty set of summaries.
func newSummaries() *summaries {
	ctx, cancel := context.WithCancel(context.Background())
	return &summaries{ctx: ctx, cancel: cancel, epoch: time.Now(), notes: newSummaryStore(), limit: boundary.MaxEntries, budget: maxSummaryBytes,
		recheck: recheckAge, maxAge: maxSummaryAge, batch: recheckBatch}
}

// Close stops making summaries and waits until no read of a note is in
// progress for them.
func (s *summaries) Close() {
	s.cancel()
	s.wg.Wait()
}

// prepare starts making summaries before any call, so that the first call
// is answered as fast as the ones after it: on a goroutine of its own it
// lists root and summarises every note, as after a call. It stops as soon
// as a call begins (the walk is abandoned; the call's own end then starts
// summarising again) or Close is called, and does nothing once a call has
// begun.
func (s *summaries) prepare(root *boundary.Root) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen > 0 || s.building || s.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, Timeout)
	s.building, s.stopPrepare = true, cancel
	s.wg.Add(1)
	go func() {
		listing, err := root.Walk(ctx)
		cancel()
		s.mu.Lock()
		s.stopPrepare = nil
		if err == nil && s.gen == 0 {
			for _, n := range listing.Notes {
				if n.Stamp() != (boundary.Stamp{}) && s.room(len(s.pending)) {
					s.pending = append(s.pending, n.Name)
				}
			}
		}
		s.mu.Unlock()
		// It stops at once while a call is in progress; one that has
		// already ended left its own notes pending.
		s.build(root) // calls s.wg.Done
	}()
}

// A summaryCall is one call's use of summaries.
type summaryCall struct {
	s       *summaries
	bits    []uint32  // the query's trigrams
	gen     uint64    // the call's mark on the summaries it saw listed
	start   time.Time // when the call began
	pending []string
}

// begin starts a call for q; the call's walk then hands every note it lists
// to mustRead, and the call ends with end.
func (s *summaries) begin(q *Query) *summaryCall {
	bits := q.gramBits()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.gen++
	if s.stopPrepare != nil {
		s.stopPrepare()
	}
	return &summaryCall{s: s, bits: bits, gen: s.gen, start: time.Now()}
}

// mustRead reports whether the call must read n: it must unless a current
// summary, made from a read less than maxAge before the call began, shows
// n cannot match the query. Notes are handed to it in the order of the
// walk, on the walk's goroutine.
func (c *summaryCall) mustRead(n boundary.Note) bool {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if n.Stamp() == (boundary.Stamp{}) {
		return true
	}
	sm := s.notes.get(n.Name)
	if sm != nil {
		sm.gen = max(sm.gen, c.gen)
		if sm.stamp == n.Stamp() && c.start.Sub(s.epoch)-sm.read <= s.maxAge {
			return s.notes.filterOf(sm).mayHold(c.bits)
		}
	}
	if sm != nil || s.room(len(c.pending)) {
		c.pending = append(c.pending, n.Name)
	}
	return true
}

// end ends the call, whose walk listed listed notes. When it listed the
// whole folder (complete), the summaries of notes no longer listed are
// forgotten and the notes the call found without a current summary are the
// ones to summarise next; summarising starts once no call is in progress.
func (c *summaryCall) end(root *boundary.Root, complete bool, listed int) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls--
	if complete {
		if s.notes.len() > listed || !s.room(0) {
			s.prune(c.gen)
		}
		s.pending = c.pending
	}
	if s.calls > 0 || s.building || s.ctx.Err() != nil {
		return
	}
	if len(s.pending) == 0 && !s.due(c.start) {
		return
	}
	s.building = true
	s.wg.Add(1)
	go s.build(root)
}

// room reports whether there may be room for another summary beside the
// ones made and pending more: whether even the smallest would fit.
func (s *summaries) room(pending int) bool {
	return s.notes.len()+pending < s.limit && s.bytes+(pending+1)*minSummaryBytes <= s.budget
}

// drop forgets the summary of the note called name, if there is one.
func (s *summaries) drop(name string) {
	if sm := s.notes.get(name); sm != nil {
		s.bytes -= summaryCost(name, int(sm.words))
		s.notes.delete(name)
	}
}

// due reports whether, at now, a summary may be old enough to be checked.
func (s *summaries) due(now time.Time) bool {
	return s.notes.len() > 0 && !now.Before(s.nextCheck)
}

// queueChecks makes pending the at most max summaries, oldest first, whose
// read is more than recheck old at now, so that build reads them again.
// Pending notes are made by hand, with
// no walk's lstat: a read of one looks its name up again.
func (s *summaries) queueChecks(now time.Time, max int) {
	type old struct {
		sm   *summary
		read time.Time
	}
	var olds []old
	// Summaries made from now on are read later than now.
	s.nextCheck = now.Add(s.recheck)
	s.notes.each(func(sm *summary) {
		read := s.epoch.Add(sm.read)
		if now.Sub(read) > s.recheck {
			olds = append(olds, old{sm, read})
		} else if next := read.Add(s.recheck); next.Before(s.nextCheck) {
			s.nextCheck = next
		}
	})
	slices.SortFunc(olds, func(a, b old) int { return a.read.Compare(b.read) })
	if len(olds) > max {
		olds = olds[:max]
		s.nextCheck = now // more are due after the next call
	}
	// build takes pending from its end: the oldest goes last.
	for i := len(olds) - 1; i >= 0; i-- {
		s.pending = append(s.pending, s.notes.nameOf(olds[i].sm))
	}
}

// prune forgets the summaries of notes that no walk since the one of the
// call marked gen has listed.
func (s *summaries) prune(gen uint64) {
	var names []string
	s.notes.each(func(sm *summary) {
		if sm.gen < gen {
			names = append(names, s.notes.nameOf(sm))
		}
	})
	for _, name := range names {
		s.drop(name)
	}
}

// build summarises pending notes until none is left, a call starts or
// Close is called. Then, once per build, it checks the oldest summaries
// against fresh reads, at most batch of them (see recheckAge), so the work
// a call leaves behind is bounded.
func (s *summaries) build(root *boundary.Root) {
	defer s.wg.Done()
	rd := root.NewReader()
	defer rd.Close()
	buf := make([]byte, 0, boundary.MaxFileSize+1)
	var folded []byte
	checked := false
	for {
		s.mu.Lock()
		if len(s.pending) == 0 && !checked && s.calls == 0 {
			checked = true
			s.queueChecks(time.Now(), s.batch)
		}
		if s.calls > 0 || len(s.pending) == 0 || s.ctx.Err() != nil {
			s.building = false
			s.mu.Unlock()
			return
		}
		n := boundary.Note{Name: s.pending[len(s.pending)-1]}
		s.pending = s.pending[:len(s.pending)-1]
		s.mu.Unlock()

		ctx, cancel := context.WithTimeout(s.ctx, Timeout)
		began := time.Now()
		text, st, err := rd.Read(ctx, n, buf)
		cancel()
		if errors.Is(err, boundary.ErrNotInTime) {
			// The abandoned read may still write into buf.
			buf = make([]byte, 0, boundary.MaxFileSize+1)
			continue
		}
		if err != nil || st == (boundary.Stamp{}) {
			// Read, and refused, on every call; a summary being checked
			// is dropped, and made again once its note settles.
			s.mu.Lock()
			s.drop(n.Name)
			s.mu.Unlock()
			continue
		}
		folded = appendFolded(folded[:0], text)
		f := newFilter(folded)
		cost := summaryCost(n.Name, len(f))
		s.mu.Lock()
		old := s.notes.get(n.Name)
		fits := s.notes.len() < s.limit && s.bytes+cost <= s.budget && len(n.Name) <= maxSummaryName
		if old != nil {
			fits = s.bytes-summaryCost(n.Name, int(old.words))+cost <= s.budget && len(n.Name) <= maxSummaryName
		}
		if old != nil || fits {
			s.drop(n.Name)
		}
		if fits {
			s.notes.put(n.Name, summary{stamp: st, read: began.Sub(s.epoch), gen: s.gen}, f)
			s.bytes += cost
		}
		s.mu.Unlock()
	}
}
