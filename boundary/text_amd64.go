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

// isTextVector is isText for CPUs with AVX2, in one pass instead of two:
// textPrefixAVX2 goes over runs of ASCII 64 bytes at a time and over the
// two- and three-byte sequences between them (the non-ASCII text of notes
// is mostly punctuation such as dashes and accented letters), and stops
// only at anything else, which utf8.DecodeRune then decides. This is
// exact: valid UTF-8 is ASCII bytes and whole multi-byte sequences, the
// assembly accepts only the sequences Unicode's table of well-formed UTF-8
// allows, and utf8.DecodeRune refuses overlong forms, surrogates and code
// points above U+10FFFF exactly as utf8.Valid does.
func isTextVector(data []byte) bool {
	for {
		data = data[textPrefixAVX2(data):]
		if len(data) == 0 {
			return true
		}
		if data[0] == 0 {
			return false
		}
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size == 1 {
			return false
		}
		data = data[size:]
	}
}

// textPrefixAVX2 returns the length of the longest prefix of p made of
// ASCII bytes other than NUL and of well-formed two- and three-byte UTF-8
// sequences. It reads no byte past len(p). It needs AVX2.
//
//go:noescape
func textPrefixAVX2(p []byte) int
