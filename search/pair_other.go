//go:build !amd64 || purego

package search

// hasPairScan is false where there is no vector pair scan: findPassages looks for
// candidates with bytes.IndexByte alone.
const hasPairScan = false

func indexPair(s []byte, c0, m0, c1, m1 byte) int {
	panic("search: indexPair without a vector pair scan")
}
