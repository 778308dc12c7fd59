package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"practice-notes/boundary"
)

// tornNote is version v of a note for TestNoTornPassage: filler paragraphs,
// then the one paragraph the query matches, which straddles the first page
// boundary, then more filler. Every version has the same size, and every
// paragraph names its version on each line, so a read that saw part of one
// write and part of another returns a passage no version holds.
func tornNote(v int) []byte {
	tag := fmt.Sprintf("v%04d", v%10000)
	para := func(first string, lines int) string {
		var b strings.Builder
		b.WriteString(first)
		for i := range lines {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(strings.TrimSpace(strings.Repeat(tag+" ", 12)))
		}
		return b.String()
	}
	var parts []string
	for range 5 {
		parts = append(parts, para("filler ", 10)) // 5 × about 780 bytes
	}
	parts = append(parts, tornParagraph(v))
	for range 5 {
		parts = append(parts, para("filler ", 10))
	}
	return []byte(strings.Join(parts, "\n\n") + "\n")
}

// tornParagraph is the paragraph of version v that the query "torn check"
// matches: about 900 bytes, so a passage is never clipped.
func tornParagraph(v int) string {
	tag := fmt.Sprintf("v%04d", v%10000)
	var b strings.Builder
	b.WriteString("torn check")
	for range 12 {
		b.WriteByte('\n')
		b.WriteString(strings.TrimSpace(strings.Repeat(tag+" ", 12)))
	}
	return b.String()
}

// TestNoTornPassage rewrites notes in place, as an editor or a script does
// (truncate and write; overwrite in place in one write), while searches
// run, and checks that every passage returned is the whole paragraph of
// one version: a note changed while it is read is read again, or skipped
// with a reason, never returned as a mix of two writes. (A writer that
// writes a note in several writes leaves it holding part of each between
// them; a read then returns what the note holds, as any reader would.)
func TestNoTornPassage(t *testing.T) {
	dir := t.TempDir()
	const notes = 10
	names := make([]string, notes)
	for i := range names {
		names[i] = filepath.Join(dir, fmt.Sprintf("note-%02d.md", i))
		if err := os.WriteFile(names[i], tornNote(0), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	size := len(tornNote(0))
	valid := map[string]bool{}
	for v := range 10000 {
		valid[tornParagraph(v)] = true
	}
	root, err := boundary.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	s := New(root, Options{Summaries: true})
	defer s.Close()
	q, err := ParseQuery("torn check")
	if err != nil {
		t.Fatal(err)
	}

	var (
		stop    atomic.Bool
		writes  atomic.Int64
		wg      sync.WaitGroup
		werrMu  sync.Mutex
		werrors []error
	)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := 1 + w; !stop.Load(); v += 2 {
				text := tornNote(v)
				if len(text) != size {
					panic("versions differ in size")
				}
				name := names[v%notes]
				var err error
				if v%2 == 0 {
					err = os.WriteFile(name, text, 0o644)
				} else {
					err = overwrite(name, text)
				}
				if err != nil {
					werrMu.Lock()
					werrors = append(werrors, err)
					werrMu.Unlock()
					return
				}
				writes.Add(1)
			}
		}()
	}
	passages, rereads := 0, 0
	for range 300 {
		res, _, err := s.Run(context.Background(), q)
		if err != nil {
			stop.Store(true)
			wg.Wait()
			t.Fatal(err)
		}
		for _, m := range res.Matches {
			passages++
			if !valid[m.Passage] {
				t.Errorf("%s: a passage no version of the note holds (a read that saw two writes):\n%s", m.File, m.Passage)
			}
		}
		for _, sk := range res.Skipped {
			rereads++
			if !strings.Contains(sk.Reason, "changed while it was read") {
				t.Errorf("%s skipped: %s", sk.File, sk.Reason)
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	for _, err := range werrors {
		t.Error(err)
	}
	t.Logf("%d passages checked, %d notes skipped as changing, over %d writes", passages, rereads, writes.Load())
	if passages < 300 {
		t.Errorf("only %d passages returned by 300 searches of %d notes; the test checked too little", passages, notes)
	}
}

// overwrite writes text over the start of the file name in one write, in
// place, without truncating it.
func overwrite(name string, text []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(text, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
