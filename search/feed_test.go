package search

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"practice-notes/boundary"
)

// TestFeedKeepsOrderAcrossReleases adds notes across several chunks while
// releasing the ones read, as scan does, and checks that every note is
// read back in order and that the notes not yet read are all reported.
func TestFeedKeepsOrderAcrossReleases(t *testing.T) {
	ctx := context.Background()
	for _, total := range []int{0, 1, feedChunk - 1, feedChunk, feedChunk + 1, 3*feedChunk + 7} {
		for _, readTo := range []int{0, total / 2, total} {
			t.Run(fmt.Sprintf("%d notes, %d read", total, readTo), func(t *testing.T) {
				f := newFeed()
				var want []string
				for i := range total {
					name := fmt.Sprintf("note-%05d.md", i)
					want = append(want, name)
					f.add(boundary.Note{Name: name})
				}
				f.finish()
				for i := range readTo {
					n, ok, err := f.at(ctx, i)
					if err != nil || !ok {
						t.Fatalf("at(%d) = %v, %v", i, ok, err)
					}
					if n.Name != want[i] {
						t.Fatalf("at(%d) = %q, want %q", i, n.Name, want[i])
					}
					f.release(i + 1)
				}
				if _, ok, err := f.at(ctx, total); ok || err != nil {
					t.Errorf("at(%d) past the end = %v, %v; want false, nil", total, ok, err)
				}
				var rest []string
				for _, n := range f.from(readTo) {
					rest = append(rest, n.Name)
				}
				if diff := cmp.Diff(want[readTo:], rest, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("from(%d) (-want +got):\n%s", readTo, diff)
				}
				if kept := len(f.chunks) * feedChunk; kept > total-readTo+2*feedChunk {
					t.Errorf("%d notes read of %d, yet chunks for %d are kept", readTo, total, kept)
				}
				f.close()
				f.add(boundary.Note{Name: "late.md"}) // an abandoned walk's
				if len(f.chunks) != 0 {
					t.Errorf("a note added after close is kept")
				}
			})
		}
	}
}

// TestFeedWaitsForTheWalk checks that at waits for a note not yet added
// and ends with the context.
func TestFeedWaitsForTheWalk(t *testing.T) {
	f := newFeed()
	got := make(chan string)
	go func() {
		n, _, _ := f.at(context.Background(), 0)
		got <- n.Name
	}()
	f.add(boundary.Note{Name: "a.md"})
	if name := <-got; name != "a.md" {
		t.Errorf("at(0) = %q, want a.md", name)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok, err := f.at(ctx, 1); ok || err != context.Canceled {
		t.Errorf("at(1) with the context ended = %v, %v; want false, %v", ok, err, context.Canceled)
	}
}
