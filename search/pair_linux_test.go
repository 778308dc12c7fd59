package search

import (
	"testing"

	"practice-notes/tests/pageend"
)

// TestIndexPairReadsNoFurther puts texts at the very end of a page followed
// by one that cannot be read, so a scan that reads past the end of the
// slice faults.
func TestIndexPairReadsNoFurther(t *testing.T) {
	if !hasPairScan {
		t.Skip("no vector pair scan on this machine")
	}
	page := pageend.Page(t)
	for n := 0; n <= 200; n++ {
		s := page[len(page)-n:]
		for i := range s {
			s[i] = 'x'
		}
		if got := indexPair(s, 'a', 0x20, 'b', 0x20); got != -1 {
			t.Fatalf("indexPair(%d bytes without the pair) = %d, want -1", n, got)
		}
		if n >= 2 {
			s[n-2], s[n-1] = 'a', 'b'
			if got := indexPair(s, 'a', 0x20, 'b', 0x20); got != n-2 {
				t.Fatalf("indexPair(%d bytes ending in the pair) = %d, want %d", n, got, n-2)
			}
		}
	}
}
