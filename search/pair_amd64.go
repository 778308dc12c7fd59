//go:build amd64 && !purego

package search

import "golang.org/x/sys/cpu"

// indexPairAVX2 returns the smallest i with s[i]|m0 == c0 and
// s[i+1]|m1 == c1 among the first (len(s)-1)/32*32 positions, or -1. It
// needs AVX2.
//
//go:noescape
func indexPairAVX2(s []byte, c0, m0, c1, m1 byte) int

// hasPairScan reports whether indexPairAVX2 can run here: the CPU has AVX2
// and the operating system saves its registers (cpu.X86.HasAVX2 checks
// both).
var hasPairScan = cpu.X86.HasAVX2

// indexPair returns the smallest i with s[i]|m0 == c0 and s[i+1]|m1 == c1,
// or -1. Callers use it only when hasPairScan is true.
func indexPair(s []byte, c0, m0, c1, m1 byte) int {
	i := 0
	if len(s) > 32 {
		if j := indexPairAVX2(s, c0, m0, c1, m1); j >= 0 {
			return j
		}
		i = (len(s) - 1) / 32 * 32
	}
	for ; i+1 < len(s); i++ {
		if s[i]|m0 == c0 && s[i+1]|m1 == c1 {
			return i
		}
	}
	return -1
}
