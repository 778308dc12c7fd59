package boundary

import (
	"path"
	"path/filepath"
	"strings"
)

// CheckName reports whether name is acceptable as a note name: a non-empty,
// slash-separated path relative to the root with no "." or ".." element,
// backslash, NUL byte, drive letter or empty element, ending in a note
// extension, with no element starting with a dot (see isHidden) and in a
// directory at most [MaxDepth] levels below the root. It does not touch the
// file system.
//
// With the type and size checks of checkInfo, this is the one rule of what a
// note is: a walk lists exactly the names it accepts (walking never enters a
// hidden directory nor one deeper than MaxDepth), and a read refuses the rest.
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
	depth := 0
	for elem := range strings.SplitSeq(name, "/") {
		if isHidden(elem) {
			return refuse(name, ErrHidden, nil)
		}
		depth++
	}
	if depth-1 > MaxDepth {
		return refuse(name, ErrTooDeep, nil)
	}
	return nil
}

// isHidden reports whether one element of a path is hidden: it starts with
// a dot, as .git, .obsidian or .private do. A walk neither lists nor enters
// a hidden entry, and a read refuses a name holding one.
func isHidden(elem string) bool { return strings.HasPrefix(elem, ".") }

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
