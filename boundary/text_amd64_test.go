//go:build amd64 && !purego

package boundary

import (
	"fmt"
	"testing"
)

// TestTextPrefix: the vector scan passes over plain bytes and well-formed
// two- and three-byte sequences, at every offset across its blocks, and
// stops exactly at anything else.
func TestTextPrefix(t *testing.T) {
	if !hasTextScan {
		t.Skip("the CPU has no AVX2: the vector scan cannot run here")
	}
	for n := 0; n <= 200; n++ {
		if got := textPrefixAVX2(plainFiller(n)); got != n {
			t.Fatalf("textPrefixAVX2(%d plain bytes) = %d, want %d", n, got, n)
		}
	}
	passed := []string{
		"\u00e9", "\u0080", "\u07ff", // two bytes
		"\u2014", "\u0800", "\ud7ff", "\ue000", "\ufffd", "\uffff", // three bytes
	}
	stops := []string{
		"\x00", "\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xf0\x9f\x98\x80", "\xf5", "\xff", // refused, or four bytes
		"\xc3\x28", "\xe2\x28\x94", "\xe2\x80\x28", // a bad continuation byte
		"\xe0\x80\x80", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", // overlong, surrogate
	}
	for off := 0; off <= 130; off++ {
		for _, pad := range textPads {
			for _, seq := range passed {
				// Passed over, the scan goes on to the stop after it.
				p := append(plainFiller(off), seq...)
				p = append(p, plainFiller(pad)...)
				want := len(p)
				p = append(p, 0)
				if got := textPrefixAVX2(p); got != want {
					t.Fatalf("textPrefixAVX2(%q at offset %d, then %d plain bytes and NUL) = %d, want %d", seq, off, pad, got, want)
				}
				// Cut short at the end of p, it is a stop.
				q := append(plainFiller(off), seq[:len(seq)-1]...)
				if got := textPrefixAVX2(q); got != off {
					t.Fatalf("textPrefixAVX2(%q cut short at offset %d) = %d, want %d", seq, off, got, off)
				}
			}
			for _, seq := range stops {
				p := append(plainFiller(off), seq...)
				p = append(p, plainFiller(pad)...)
				p = append(p, "\u2014"...)
				if got := textPrefixAVX2(p); got != off {
					t.Fatalf("textPrefixAVX2(%s at offset %d of %d bytes) = %d, want %d", fmt.Sprintf("%q", seq), off, len(p), got, off)
				}
			}
		}
	}
}
