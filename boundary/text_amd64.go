//go:build amd64 && !purego

package boundary

import (
	"unicode/utf8"

	"golang.org/x/sys/cpu"
)

// hasTextScan reports whether isTextVector can run here: the CPU has AVX2
// and the operating system saves its registers (cpu.X86.HasAVX2 checks
// both).
var hasTextScan = cpu.X86.HasAVX2

// isTextVector is IsText for CPUs with AVX2, in one pass instead of two:
// runs of ASCII are skipped 64 bytes at a time and only the non-ASCII runes
// between them are decoded. This is exact: valid UTF-8 is ASCII bytes and
// whole multi-byte sequences, and utf8.DecodeRune refuses overlong forms,
// surrogates and code points above U+10FFFF exactly as utf8.Valid does.
func isTextVector(data []byte) bool {
	for {
		data = data[plainPrefix(data):]
		if len(data) == 0 {
			return true
		}
		if data[0] == 0 {
			return false
		}
		for len(data) > 0 && data[0] >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(data)
			if r == utf8.RuneError && size == 1 {
				return false
			}
			data = data[size:]
		}
	}
}

// plainPrefix returns how many leading bytes of p are ASCII and not NUL.
func plainPrefix(p []byte) int {
	i := 0
	if len(p) >= 32 {
		i = plainPrefixAVX2(p)
		if i < len(p)&^31 {
			return i
		}
	}
	// Fewer than 32 bytes are left.
	for ; i < len(p) && p[i]-1 < 0x7f; i++ { // NUL wraps to 0xff
	}
	return i
}

// plainPrefixAVX2 returns the offset of the first byte of p that is NUL or
// 0x80 and above, looking only at the first len(p)/32*32 bytes; when there
// is none among them, it returns len(p)/32*32. It needs AVX2.
//
//go:noescape
func plainPrefixAVX2(p []byte) int
