package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/boundary"
	"practice-notes/boundary/seam"
)

// testSettle is how old the times of a note must be for the roots of
// these tests to give it a Stamp, in place of the kernel's writeback
// window (a minute or more, see boundary.Stamp), and settleTime how long
// the tests wait for the notes they wrote to be given Stamps.
const (
	testSettle = 2 * time.Second
	settleTime = testSettle + 200*time.Millisecond
)

// cachedRoot opens dir, whose notes were written at least settleTime ago,
// with a hook counting the notes read, and returns it with new summaries.
// It skips the test, saying why, where the file system gives no Stamps.
func cachedRoot(t *testing.T, dir string) (*boundary.Root, *summaries, *atomic.Int64) {
	t.Helper()
	var reads atomic.Int64
	root, err := boundary.Open(dir, seam.Options{Settle: testSettle, Faults: func(_ context.Context, op seam.Op, _ string) error {
		if op == seam.ReadFile {
			reads.Add(1)
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	listing, err := root.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(listing.Notes) == 0 || listing.Notes[0].Stamp() == (boundary.Stamp{}) {
		t.Skip("the temporary folder is on a file system whose times are not trusted, where summaries are never used")
	}
	sums := newSummaries()
	t.Cleanup(sums.Close) // before the root is closed
	return root, sums, &reads
}

// summarised returns how many notes sums holds a summary of.
func summarised(sums *summaries) int {
	sums.mu.Lock()
	defer sums.mu.Unlock()
	return sums.notes.len()
}

// numberedNotes writes n notes, named in the order they are numbered, the
// one numbered planted holding the phrase, and waits for them to be given
// Stamps.
func numberedNotes(t *testing.T, n, planted int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		text := fmt.Sprintf("## N%d · Note\n\nThe note numbered %d of the folder.\n", i, i)
		if i == planted {
			text += "The " + phrase + " is lit.\n"
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("n%05d.md", i)), text)
	}
	time.Sleep(settleTime)
	return dir
}

func search(t *testing.T, root *boundary.Root, query string, sums *summaries) answer {
	t.Helper()
	return runWith(t, root, query, sums)
}

const phrase = "velvet lantern"

// TestSummariesNeverStale changes a summarised note in every way right
// after a call, keeping its modification time where it can, and checks
// that the next call answers as reading every note afresh does.
func TestSummariesNeverStale(t *testing.T) {
	const before = "## N1 · Lamps\n\nThe velvet lanterm is lit.\n"
	const after = "## N1 · Lamps\n\nThe velvet lantern is lit.\n" // same size
	// keepTimes gives name back the times it had before a change.
	keepTimes := func(t *testing.T, name string, fi os.FileInfo) {
		if err := os.Chtimes(name, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		change func(t *testing.T, note, outside string, fi os.FileInfo)
	}{
		{"same-size rewrite", func(t *testing.T, note, _ string, fi os.FileInfo) {
			writeFile(t, note, after)
			keepTimes(t, note, fi)
		}},
		{"rename over", func(t *testing.T, note, _ string, fi os.FileInfo) {
			tmp := filepath.Join(filepath.Dir(note), "next.tmp")
			writeFile(t, tmp, after)
			keepTimes(t, tmp, fi)
			if err := os.Rename(tmp, note); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncate and regrow", func(t *testing.T, note, _ string, fi os.FileInfo) {
			if err := os.Truncate(note, 0); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(note, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt([]byte(after), 0); err != nil {
				t.Fatal(err)
			}
			f.Close()
			keepTimes(t, note, fi)
		}},
		{"append, modification time set back", func(t *testing.T, note, _ string, fi os.FileInfo) {
			f, err := os.OpenFile(note, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprint(f, "\nA velvet lantern too.\n")
			f.Close()
			keepTimes(t, note, fi)
		}},
		{"swapped for a link", func(t *testing.T, note, outside string, _ os.FileInfo) {
			writeFile(t, outside, after)
			os.Remove(note)
			if err := os.Symlink(outside, note); err != nil {
				t.Fatal(err)
			}
		}},
		{"swapped for a FIFO", func(t *testing.T, note, _ string, _ os.FileInfo) {
			os.Remove(note)
			if err := syscall.Mkfifo(note, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"given a hard link", func(t *testing.T, note, outside string, _ os.FileInfo) {
			if err := os.Link(note, outside); err != nil {
				t.Fatal(err)
			}
		}},
		{"swapped for a directory", func(t *testing.T, note, _ string, _ os.FileInfo) {
			os.Remove(note)
			writeFile(t, filepath.Join(note, "inner.md"), after)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			dir := filepath.Join(base, "root")
			note := filepath.Join(dir, "lamps.md")
			writeFile(t, note, before)
			writeFile(t, filepath.Join(dir, "other.md"), "## N2 · Other\n\nNothing here.\n")
			time.Sleep(settleTime)
			root, sums, reads := cachedRoot(t, dir)

			if res := search(t, root, phrase, sums); len(res.Matches) != 0 {
				t.Fatalf("before the change: %+v", res)
			}
			waitBuilt(t, sums)
			reads.Store(0)
			if res := search(t, root, phrase, sums); len(res.Matches) != 0 || reads.Load() != 0 {
				t.Fatalf("summaries not used: %d notes read, %+v", reads.Load(), res)
			}

			fi, err := os.Lstat(note)
			if err != nil {
				t.Fatal(err)
			}
			tt.change(t, note, filepath.Join(base, "outside.md"), fi)
			// Right after the change, and once it is old enough for the
			// note to have a Stamp again.
			for _, when := range []string{"right after", "settled"} {
				if when == "settled" {
					time.Sleep(settleTime)
				}
				got := search(t, root, phrase, sums)
				fresh := search(t, root, phrase, nil)
				if len(fresh.Matches)+len(fresh.Skipped) == 0 {
					t.Fatalf("%s: the change shows in no answer: %+v", when, fresh)
				}
				if diff := cmp.Diff(fresh, got); diff != "" {
					t.Errorf("%s: answer with summaries differs from a fresh read (-fresh +got):\n%s", when, diff)
				}
			}
		})
	}
}

// TestSummaryOfChangingNote rewrites a note while it is being read to be
// summarised: whatever that read saw, the next call finds the match.
func TestSummaryOfChangingNote(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	note := filepath.Join(dir, "lamps.md")
	writeFile(t, note, "The velvet lanterm is lit.\n")
	time.Sleep(settleTime)
	fi, err := os.Lstat(note)
	if err != nil {
		t.Fatal(err)
	}
	var armed, fired atomic.Bool
	root, err := boundary.Open(dir, seam.Options{Settle: testSettle, Faults: func(_ context.Context, op seam.Op, _ string) error {
		if op == seam.Opened && armed.Load() && fired.CompareAndSwap(false, true) {
			if err := os.WriteFile(note, []byte("The velvet lantern is lit.\n"), 0o644); err != nil {
				return err
			}
			return os.Chtimes(note, fi.ModTime(), fi.ModTime())
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	sums := newSummaries()
	defer sums.Close()
	if res := search(t, root, phrase, sums); len(res.Matches) != 0 {
		t.Fatalf("before the change: %+v", res)
	}
	armed.Store(true) // the next read is the one making the summary
	waitBuilt(t, sums)
	if !fired.Load() {
		t.Fatal("no summary was made")
	}
	if res := search(t, root, phrase, sums); len(res.Matches) != 1 {
		t.Errorf("after a rewrite during the summary's read: %+v", res)
	}
}

// TestSummariesMatchFreshReads compares, over random notes and queries
// (with the matcher's folding and white-space rules in play) and random
// changes between calls, every answer with summaries against reading
// every note afresh.
func TestSummariesMatchFreshReads(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	words := []string{"velvet", "Lantern", "heron", "QUARTZ", "ſign", "\u212Aelvin", "straße", "ΣΟΦΙΑ", "σοφια", "tea", "te", "a", "—", "N1"}
	gaps := []string{" ", "  ", "\t", "\n", "\n\n", "\u00A0", "\u3000", "\r\n", "\u2028"}
	text := func() string {
		var b strings.Builder
		if rng.IntN(8) == 0 {
			b.WriteString("\uFEFF")
		}
		for range 20 + rng.IntN(60) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString(gaps[rng.IntN(len(gaps))])
		}
		return b.String()
	}
	query := func() string {
		var b strings.Builder
		for i := range 1 + rng.IntN(3) {
			if i > 0 {
				b.WriteString([]string{" ", "  ", "\u00A0"}[rng.IntN(3)])
			}
			w := words[rng.IntN(len(words))]
			switch rng.IntN(3) {
			case 0:
				w = strings.ToUpper(w)
			case 1:
				w = strings.ToLower(w)
			}
			b.WriteString(w)
		}
		return b.String()
	}
	dir := t.TempDir()
	const notes = 40
	name := func(i int) string { return filepath.Join(dir, fmt.Sprintf("d%d", i%3), fmt.Sprintf("n%02d.md", i)) }
	for i := range notes {
		writeFile(t, name(i), text())
	}
	time.Sleep(settleTime)
	root, sums, _ := cachedRoot(t, dir)
	for round := range 6 {
		for range 40 {
			qs := query()
			got := search(t, root, qs, sums)
			fresh := search(t, root, qs, nil)
			if diff := cmp.Diff(fresh, got); diff != "" {
				t.Fatalf("round %d, query %q: answer with summaries differs from a fresh read (-fresh +got):\n%s", round, qs, diff)
			}
		}
		waitBuilt(t, sums)
		// Change a few notes, keeping their modification times.
		for range 3 {
			n := name(rng.IntN(notes))
			fi, err := os.Lstat(n)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, n, text())
			if err := os.Chtimes(n, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}
	}
	made := summarised(sums)
	if made == 0 {
		t.Error("no summary was made: the test compared nothing")
	}
}

// TestSummariesCapAndMemory: no more notes than the cap are summarised,
// the notes beyond it are read on every call and still answered, and a
// summary costs the heap its budget counts (its filter, sized to its note,
// and summaryOverhead), so memory stays bounded however large the folder
// grows.
func TestSummariesCapAndMemory(t *testing.T) {
	const notes, limit = 300, 200
	dir := numberedNotes(t, notes, notes-1)
	root, sums, reads := cachedRoot(t, dir)
	sums.limit = limit
	want := search(t, root, phrase, nil)
	if len(want.Matches) != 1 {
		t.Fatalf("the planted phrase gave %d passages; want 1", len(want.Matches))
	}
	search(t, root, phrase, sums)
	waitBuilt(t, sums)
	if n := summarised(sums); n != limit {
		t.Fatalf("%d notes summarised; want the cap, %d", n, limit)
	}
	reads.Store(0)
	if diff := cmp.Diff(want, search(t, root, phrase, sums)); diff != "" {
		t.Errorf("answer with summaries at the cap (-fresh +cached):\n%s", diff)
	}
	// The planted note sorts last, beyond the cap, so it is read; of the
	// summarised notes, only those the filter cannot rule out are.
	if n := reads.Load(); n < notes-limit || n > notes-limit+limit/10 {
		t.Errorf("%d notes read with %d of %d summarised; want about %d", n, limit, notes, notes-limit)
	}

	// Heap held by the summaries: measured by dropping them. Two
	// collections empty the read buffers' pool first.
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	sums.mu.Lock()
	kept, counted := sums.notes, float64(sums.bytes)/limit
	sums.mu.Unlock()
	with := heap()
	runtime.KeepAlive(kept)
	sums.mu.Lock()
	sums.notes = newSummaryStore()
	sums.mu.Unlock()
	kept = nil
	without := heap()
	per := float64(int64(with)-int64(without)) / limit
	t.Logf("summaries hold %.0f bytes of heap per note; the budget counts %.0f", per, counted)
	if per > counted*1.1 {
		t.Errorf("summaries of these small notes hold %.0f bytes of heap per note; the budget counts %.0f", per, counted)
	}
}

// TestPrepareBeforeFirstCall: Prepare summarises every note before any
// call, so the first call reads only the notes the filters let through,
// and answers as a fresh read does.
func TestPrepareBeforeFirstCall(t *testing.T) {
	const notes = 40
	dir := numberedNotes(t, notes, 7)
	root, sums, reads := cachedRoot(t, dir)
	want := search(t, root, phrase, nil)
	sums.prepare(root)
	waitBuilt(t, sums)
	if n := summarised(sums); n != notes {
		t.Fatalf("%d notes summarised before the first call; want %d", n, notes)
	}
	reads.Store(0)
	if diff := cmp.Diff(want, search(t, root, phrase, sums)); diff != "" {
		t.Errorf("first call after Prepare (-fresh +prepared):\n%s", diff)
	}
	if n := reads.Load(); n < 1 || n > 4 {
		t.Errorf("the first call read %d notes; want the one holding the phrase and few others", n)
	}
}

// TestPrepareYieldsToACall: a call that begins while Prepare is still
// listing the folder ends that walk at once, is answered as a fresh read
// is, and the summaries are made after it all the same.
func TestPrepareYieldsToACall(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("n%d.md", i)), fmt.Sprintf("Note %d: the velvet lantern.\n", i))
	}
	time.Sleep(settleTime)
	var (
		armed     atomic.Bool
		entered   = make(chan struct{})
		abandoned = make(chan struct{})
	)
	root, err := boundary.Open(dir, seam.Options{Settle: testSettle, Faults: func(ctx context.Context, op seam.Op, _ string) error {
		if op == seam.ListDir && armed.CompareAndSwap(true, false) {
			close(entered)
			select {
			case <-ctx.Done():
				close(abandoned)
				return ctx.Err()
			case <-time.After(10 * time.Second):
			}
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	want := search(t, root, phrase, nil)
	if listing, err := root.Walk(context.Background()); err != nil || listing.Notes[0].Stamp() == (boundary.Stamp{}) {
		t.Skip("the temporary folder is on a file system whose times are not trusted, where summaries are never used")
	}
	sums := newSummaries()
	t.Cleanup(sums.Close)
	armed.Store(true)
	sums.prepare(root)
	<-entered
	start := time.Now()
	if diff := cmp.Diff(want, search(t, root, phrase, sums)); diff != "" {
		t.Errorf("a call during Prepare (-fresh +got):\n%s", diff)
	}
	select {
	case <-abandoned:
	case <-time.After(5 * time.Second):
		t.Fatal("Prepare's walk was not ended by the call")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the call took %v while Prepare was listing", d)
	}
	waitBuilt(t, sums)
	if n := summarised(sums); n != 5 {
		t.Errorf("%d notes summarised after the call; want 5", n)
	}
}

// TestSummariesByteBudget: summaries stop at their byte budget, whatever
// the number of notes, and every answer is still a fresh read's.
func TestSummariesByteBudget(t *testing.T) {
	const notes, fit = 300, 100
	dir := numberedNotes(t, notes, notes-1)
	root, sums, _ := cachedRoot(t, dir)
	// Every note's name is as long, and its text as short, as n00000.md's.
	sums.budget = fit * summaryCost("n00000.md", minFilterBits/64)
	want := search(t, root, phrase, nil)
	search(t, root, phrase, sums)
	waitBuilt(t, sums)
	sums.mu.Lock()
	used, budget := sums.bytes, sums.budget
	sums.mu.Unlock()
	if n := summarised(sums); n != fit || used > budget {
		t.Errorf("%d notes summarised in %d bytes; want %d in at most %d", n, used, fit, budget)
	}
	if diff := cmp.Diff(want, search(t, root, phrase, sums)); diff != "" {
		t.Errorf("answer with summaries at the budget (-fresh +cached):\n%s", diff)
	}
}
