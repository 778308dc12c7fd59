//go:build amd64 && !purego

package boundary

import "testing"

func TestPlainPrefix(t *testing.T) {
	if !hasTextScan {
		t.Skip("the CPU has no AVX2: the vector scan cannot run here")
	}
	for n := 0; n <= 200; n++ {
		if got := plainPrefix(plainFiller(n)); got != n {
			t.Fatalf("plainPrefix(%d plain bytes) = %d, want %d", n, got, n)
		}
	}
	for _, stop := range []byte{0x00, 0x80, 0xc3, 0xff} {
		for off := 0; off <= 130; off++ {
			for _, pad := range textPads {
				p := append(plainFiller(off), stop)
				p = append(p, plainFiller(pad)...)
				// A second stop further on must not be the one found.
				p = append(p, stop)
				if got := plainPrefix(p); got != off {
					t.Fatalf("plainPrefix(byte %#x at offset %d of %d bytes) = %d, want %d",
						stop, off, len(p), got, off)
				}
			}
		}
	}
}
