package main

import (
	"runtime"
	"strings"
)

// nameAllowed reports whether a fixture may create a file called name on
// this system: Windows forbids control characters and `"*:<>?|` in names.
func nameAllowed(name string) bool {
	return runtime.GOOS != "windows" ||
		!strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || strings.ContainsRune(`"*:<>?|`, r) })
}
