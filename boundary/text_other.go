//go:build !amd64 || purego

package boundary

// hasTextScan is false where there is no vector scan: isText uses the
// portable check.
const hasTextScan = false

// isTextVector is the portable check here, so tests can name both paths on
// every machine.
func isTextVector(data []byte) bool { return isTextPortable(data) }
