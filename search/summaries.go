package search

import (
	"context"
	"errors"
	"sort"
	"sync"

	"practice-notes/boundary"
)

// maxSummaries is how many notes are summarised at most, about 1.1 KiB
// each: beyond it, notes are read on every call, and memory stays flat
// however large the folder grows.
const maxSummaries = 8192

// Summaries keeps, across the calls of one long-lived server, a filter of
// what each note can match (see filter), so that a call skips the notes
// that cannot match the query without reading them. It guarantees that a
// call's answer is the one reading every note afresh would give:
//
//   - a summary is used only while the note's [boundary.Stamp] from this
//     call's walk equals the one taken when the summary was made, so a
//     note changed in any way since is read again; notes without a Stamp
//     (too recently changed, or on a file system whose times are not
//     trusted) are always read;
//   - a summary only ever lets a note be skipped as holding no match; the
//     walk still decides, on every call, which files are notes and which
//     are refused, and a note that would be refused on reading (such as
//     one that is not text) is never summarised, so it is read and
//     refused every time.
//
// Summaries are made between calls, not during them: after a call, one
// goroutine reads the notes that lacked a current summary, stopping as soon
// as another call starts, so the work never delays an answer. Summaries
// is safe for concurrent use; Close it before closing the root it reads.
type Summaries struct {
	ctx    context.Context // ended by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	notes    map[string]*summary
	pending  []string // notes the last call found without a current summary
	calls    int      // calls in progress
	building bool     // the goroutine making summaries runs
}

type summary struct {
	stamp boundary.Stamp
	f     filter
}

// NewSummaries returns an empty set of summaries.
func NewSummaries() *Summaries {
	ctx, cancel := context.WithCancel(context.Background())
	return &Summaries{ctx: ctx, cancel: cancel, notes: map[string]*summary{}}
}

// Close stops making summaries and waits until no read of a note is in
// progress for them.
func (s *Summaries) Close() {
	s.cancel()
	s.wg.Wait()
}

// begin starts a call over listing and returns the notes it must read:
// those not known, by a current summary, to be unable to match q.
func (s *Summaries) begin(listing *boundary.Listing, q *Query) []string {
	bits := q.gramBits()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if len(s.notes) > len(listing.Notes) || len(s.notes) >= maxSummaries {
		s.prune(listing.Notes)
	}
	read := make([]string, 0, len(listing.Notes))
	s.pending = s.pending[:0]
	for i, name := range listing.Notes {
		st := listing.Stamps[i]
		if st == (boundary.Stamp{}) {
			read = append(read, name)
			continue
		}
		sm := s.notes[name]
		if sm != nil && sm.stamp == st {
			if sm.f.mayHold(bits) {
				read = append(read, name)
			}
			continue
		}
		read = append(read, name)
		if sm != nil || len(s.notes)+len(s.pending) < maxSummaries {
			s.pending = append(s.pending, name)
		}
	}
	return read
}

// prune forgets the summaries of notes no longer listed; names is sorted.
func (s *Summaries) prune(names []string) {
	for name := range s.notes {
		if i := sort.SearchStrings(names, name); i == len(names) || names[i] != name {
			delete(s.notes, name)
		}
	}
}

// end ends a call begun with begin, and starts making the missing
// summaries once no call is in progress.
func (s *Summaries) end(root *boundary.Root) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls--
	if s.calls > 0 || s.building || len(s.pending) == 0 || s.ctx.Err() != nil {
		return
	}
	s.building = true
	s.wg.Add(1)
	go s.build(root)
}

// build summarises pending notes until none is left, a call starts or
// Close is called.
func (s *Summaries) build(root *boundary.Root) {
	defer s.wg.Done()
	rd := root.NewReader()
	defer rd.Close()
	buf := make([]byte, 0, boundary.MaxFileSize+1)
	var folded []byte
	for {
		s.mu.Lock()
		if s.calls > 0 || len(s.pending) == 0 || s.ctx.Err() != nil {
			s.building = false
			s.mu.Unlock()
			return
		}
		name := s.pending[len(s.pending)-1]
		s.pending = s.pending[:len(s.pending)-1]
		s.mu.Unlock()

		ctx, cancel := context.WithTimeout(s.ctx, Timeout)
		text, st, err := rd.Read(ctx, name, buf)
		cancel()
		if errors.Is(err, boundary.ErrNotInTime) {
			// The abandoned read may still write into buf.
			buf = make([]byte, 0, boundary.MaxFileSize+1)
			continue
		}
		if err != nil || st == (boundary.Stamp{}) {
			continue // read, and refused, on every call
		}
		folded = appendFolded(folded[:0], text)
		sm := &summary{stamp: st}
		sm.f.add(folded)
		s.mu.Lock()
		if _, ok := s.notes[name]; ok || len(s.notes) < maxSummaries {
			s.notes[name] = sm
		}
		s.mu.Unlock()
	}
}
