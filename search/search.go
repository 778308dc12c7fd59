// Package search runs a phrase query over the notes a [boundary.Root] hands
// it. It guarantees that:
//
//   - every passage is a byte-for-byte copy of text from a note: a whole
//     paragraph, or a window of at most [MaxPassage] bytes around the match
//     cut on UTF-8 boundaries and marked as clipped; nothing is generated,
//     summarised or rewritten;
//   - matching is literal (no patterns) and case-insensitive under Unicode
//     simple case folding, and each run of white space between the query's
//     words matches a run of Unicode white space in the note (space, tab,
//     NBSP, U+3000, U+2028 and every other rune [unicode.IsSpace] accepts)
//     holding at most one line break, so a phrase wrapped inside a
//     paragraph is found but a match never crosses a blank line;
//   - a UTF-8 byte-order mark at the start of a note is not text: headings,
//     front matter and passages are as without it, and passages are still
//     byte ranges of the file;
//   - a passage's note ID follows one rule: the ID of the nearest heading at
//     or above it whose text starts with an ID token (one or more ASCII
//     capital letters, an optional '-', one or more ASCII digits, then the
//     end of the heading or a character that is not a letter, mark or digit
//     of any script: N2 in "## N2 · Title", N13 in "## N13_draft", none in
//     "## N12é" or "## N14٣"), where a heading is an ATX heading line
//     outside front matter and fenced code blocks; without one, the "id:"
//     of YAML front matter at the top of the note. docs/protocol.md states
//     it with examples that TestNoteIDRuleInDocs runs;
//   - results are ordered by file (byte order of the slash-separated path)
//     then position, hold at most [MaxMatches] passages and say when more
//     matched;
//   - a call's answer is the one reading every note afresh, one after
//     another, would give, whether or not its [Searcher] keeps summaries
//     of the notes between calls (see [Options]), but for the one
//     exception below;
//   - a call stops between files when its context is cancelled, and
//     answers by [Timeout] (or its context's deadline, if sooner) even when
//     a read never returns: with the passages found by then, and every
//     note not searched in time listed as skipped;
//   - file names in results are relative to the root, and a file that was
//     not searched is reported by name and reason only.
//
// It does not guarantee that:
//
//   - every note is searched: those the root refuses, those past the walk's
//     limits (boundary.MaxEntries, boundary.MaxDepth) and those not read
//     in time are not, and the [Coverage] of a call says so;
//   - a change to a note that moves none of its times (see boundary.Stamp)
//     is seen at once: a Searcher with summaries may miss it for up to
//     four minutes, until it reads the note again;
//   - a read the file system never answers ends: it is abandoned, and
//     holds a goroutine until the kernel returns (see boundary.Root).
package search

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync/atomic"
	"time"

	"practice-notes/boundary"
)

// Limits of one call.
const (
	MaxMatches = 10
	MaxSkipped = 20
	Timeout    = 10 * time.Second
)

// Match is one passage in a [Result].
type Match struct {
	File    string `json:"file"`
	NoteID  string `json:"note_id,omitempty"`
	Line    int    `json:"line"`
	Passage string `json:"passage"`
	Clipped bool   `json:"clipped"`
}

// Skipped is a file that was not searched.
type Skipped struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// Result is the answer to one query: what the search_notes tool returns
// as structured content. Run leaves Message empty, for whoever presents the
// result to write from its [Coverage].
type Result struct {
	Query     string    `json:"query"`
	Matches   []Match   `json:"matches"`
	Truncated bool      `json:"truncated"`
	Message   string    `json:"message"`
	Skipped   []Skipped `json:"skipped"`
}

// Coverage says how much of the folder a call searched, beyond what its
// [Result] lists.
type Coverage struct {
	// NotSearched is how many files were not searched; Result.Skipped
	// lists the first MaxSkipped of them.
	NotSearched int
	// Incomplete says the folder is larger than the walk limits
	// (boundary.MaxEntries, boundary.MaxDepth), so some files were never
	// looked at.
	Incomplete bool
	// OutOfTime says the call's time ran out before every note was read.
	OutOfTime bool
}

// errTimeout is returned when the notes folder could not even be listed
// within [Timeout].
var errTimeout = fmt.Errorf("listing the notes folder took longer than %v; the search was stopped", Timeout)

// errNotReached is the reason given for a note the search did not get to
// before its time limit.
var errNotReached = errors.New("not searched: the time limit passed first")

// Options says how a [Searcher] searches. The zero Options reads every
// note on every call.
type Options struct {
	// Summaries keeps, across calls, a summary of what each note can
	// match, so that a call skips without reading the notes that cannot
	// match its query, and starts making them at once, so that the first
	// call is as fast as the ones after it (see summaries). Answers are the
	// same either way.
	Summaries bool
}

// A Searcher searches the notes under one root. It is safe for concurrent
// use; Close it before closing the root.
type Searcher struct {
	root *boundary.Root
	sums *summaries // nil without Options.Summaries
}

// New returns a Searcher of the notes under root.
func New(root *boundary.Root, opts Options) *Searcher {
	s := &Searcher{root: root}
	if opts.Summaries {
		s.sums = newSummaries()
		s.sums.prepare(root)
	}
	return s
}

// Close stops the work the Searcher does between calls and waits until no
// read of a note is in progress for it. No call may be in progress.
func (s *Searcher) Close() {
	if s.sums != nil {
		s.sums.Close()
	}
}

// Run searches the notes for q.
func (s *Searcher) Run(ctx context.Context, q *Query) (*Result, Coverage, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	res, cov, err := run(ctx, s.root, q, s.sums)
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, Coverage{}, errTimeout
	}
	return res, cov, err
}

// run is Run without its time limit. With sums not nil, notes that sums
// shows cannot match are not read, and sums learns about the others after
// the call; sums is used with one root only.
func run(ctx context.Context, root *boundary.Root, q *Query, sums *summaries) (*Result, Coverage, error) {
	var call *summaryCall
	if sums != nil {
		call = sums.begin(q)
	}
	// The walk feeds the scan as it goes. It is left to finish even when
	// the scan stops early, so the files it skipped are all reported.
	notes := newFeed()
	var (
		listing *boundary.Listing
		werr    error
		// listed counts the notes the walk yields, which a walk abandoned
		// at the deadline may still do after it has returned.
		listed atomic.Int64
		walked = make(chan struct{})
	)
	defer func() {
		<-walked
		if call != nil {
			call.end(root, werr == nil, int(listed.Load()))
		}
	}()
	go func() {
		defer close(walked)
		defer notes.finish()
		listing, werr = root.WalkFunc(ctx, func(n boundary.Note) {
			listed.Add(1)
			if call == nil || call.mustRead(n) {
				notes.add(n)
			}
		})
	}()
	res := &Result{Query: q.String(), Matches: []Match{}, Skipped: []Skipped{}}
	var skipped []boundary.Skipped
	visited, late := 0, false
	err := scan(ctx, root, q, notes, func(f *fileResult) (stop bool) {
		visited++
		if f.reason != nil {
			late = late || f.reason == boundary.ErrNotInTime
			skipped = append(skipped, boundary.Skipped{Name: f.note.Name, Reason: f.reason})
			return false
		}
		room := MaxMatches - len(res.Matches)
		res.Matches = append(res.Matches, f.matches[:min(room, len(f.matches))]...)
		if f.more || len(f.matches) > room {
			res.Truncated = true
			return true
		}
		return false
	})
	<-walked
	defer notes.close()
	if werr != nil {
		return nil, Coverage{}, werr
	}
	skipped = append(skipped, listing.Skipped...)
	if errors.Is(err, context.DeadlineExceeded) {
		// Out of time: what was found stands, and every note not visited
		// is reported.
		for _, n := range notes.from(visited) {
			skipped = append(skipped, boundary.Skipped{Name: n.Name, Reason: errNotReached})
		}
		late, err = true, nil
	}
	if err != nil {
		return nil, Coverage{}, err
	}
	sortSkipped(skipped)
	for _, s := range skipped[:min(len(skipped), MaxSkipped)] {
		res.Skipped = append(res.Skipped, Skipped{File: s.Name, Reason: s.Reason.Error()})
	}
	return res, Coverage{NotSearched: len(skipped), Incomplete: listing.Incomplete, OutOfTime: late}, nil
}

func sortSkipped(s []boundary.Skipped) {
	sort.SliceStable(s, func(i, j int) bool { return s[i].Name < s[j].Name })
}
