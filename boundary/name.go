package boundary

import (
	"path"
	"path/filepath"
	"strings"
)

// CheckName reports whether name is acceptable as a note name: a non-empty,
// slash-separated path relative to the root with no "." or ".." element,
// backslash, NUL byte, drive letter or empty element, ending in a note
// extension. It does not touch the file system.
func CheckName(name string) error {
	if name == "" || strings.ContainsAny(name, "\\\x00") ||
		strings.HasPrefix(name, "/") || hasDriveLetter(name) {
		return refuse(name, ErrInvalidName, nil)
	}
	for _, elem := range strings.Split(name, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return refuse(name, ErrInvalidName, nil)
		}
	}
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return refuse(name, ErrInvalidName, nil)
	}
	if !IsNoteName(name) {
		return refuse(name, ErrNotNote, nil)
	}
	return nil
}

func hasDriveLetter(name string) bool {
	return len(name) >= 2 && name[1] == ':' &&
		('a' <= name[0]|0x20 && name[0]|0x20 <= 'z')
}

// IsNoteName reports whether name has one of the note extensions.
func IsNoteName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".txt":
		return true
	}
	return false
}
