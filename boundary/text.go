package boundary

import (
	"bytes"
	"unicode/utf8"
)

// isText reports whether data is valid UTF-8 without NUL bytes.
//
// Every note is checked whole before it is searched, so this is on the path
// of every read; where the CPU has a vector unit to do it in one pass (see
// isTextVector) it does, and elsewhere the two checks of the standard
// library are the fastest portable way.
func isText(data []byte) bool {
	if hasTextScan {
		return isTextVector(data)
	}
	return isTextPortable(data)
}

// isTextPortable is isText on any machine. It measured faster than a
// word-at-a-time loop in Go: bytes.IndexByte is assembly everywhere, and
// utf8.Valid goes back to its word loop after every ASCII byte.
func isTextPortable(data []byte) bool {
	return bytes.IndexByte(data, 0) < 0 && utf8.Valid(data)
}
