//go:build amd64 && !purego

package search

// indexPairAVX2 returns the smallest i with s[i]|m0 == c0 and
// s[i+1]|m1 == c1 among the first (len(s)-1)/32*32 positions, or -1. It
// needs AVX2.
//
//go:noescape
func indexPairAVX2(s []byte, c0, m0, c1, m1 byte) int

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// hasPairScan reports whether indexPairAVX2 can run here: the CPU has AVX2
// and the operating system saves its registers.
var hasPairScan = func() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if eax, _ := xgetbv(); eax&0x6 != 0x6 { // XMM and YMM state
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const avx2 = 1 << 5
	return ebx7&avx2 != 0
}()

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
