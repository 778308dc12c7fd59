package boundary

import (
	"testing"

	"practice-notes/tests/pageend"
)

// TestIsTextReadsNoFurther puts notes at the very end of a page followed by
// one that cannot be read, so a scan that reads past the end of the slice
// faults.
func TestIsTextReadsNoFurther(t *testing.T) {
	page := pageend.Page(t)
	for _, path := range textPaths(t) {
		for n := 0; n <= 200; n++ {
			p := page[len(page)-n:]
			copy(p, plainFiller(n))
			if !path.check(p) {
				t.Fatalf("%s: %d bytes of plain ASCII refused", path.name, n)
			}
			if n >= 2 {
				copy(p[n-2:], "é")
				if !path.check(p) {
					t.Fatalf("%s: %d bytes ending in a 2-byte rune refused", path.name, n)
				}
				p[n-1] = 0xc3 // a rune cut short by the end
				if path.check(p) {
					t.Fatalf("%s: %d bytes ending in a truncated rune accepted", path.name, n)
				}
			}
		}
	}
}
