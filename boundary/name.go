package boundary

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// The longest names the kernel opens. Linux refuses a path of PATH_MAX
// (4,096) bytes or more, its NUL included, and an element longer than
// NAME_MAX (255) bytes; openat2 is given a note's whole name at once, so a
// longer name could be listed by a walk (which opens one directory at a
// time) and never read. Such a name is not a note, on every system, so that
// every note is listed and read alike.
const (
	maxNameBytes = 4095
	maxElemBytes = 255
)

// checkName reports whether name is acceptable as a note name: a non-empty,
// slash-separated path relative to the root with no "." or ".." element,
// backslash, NUL byte, drive letter or empty element, ending in a note
// extension, with no element starting with a dot (see isHidden) and in a
// directory at most [MaxDepth] levels below the root. It does not touch the
// file system. A name that is not valid UTF-8, or longer than the kernel
// opens (4,095 bytes, 255 an element), is not a note either.
//
// With the type and size checks of checkInfo, this is the one rule of what a
// note is: a walk lists exactly the names it accepts (walking never enters a
// hidden directory nor one deeper than MaxDepth), and a read refuses the rest.
func checkName(name string) error {
	if name == "" || strings.ContainsAny(name, "\\\x00") ||
		strings.HasPrefix(name, "/") || hasDriveLetter(name) {
		return refuse(name, errInvalidName, nil)
	}
	long := len(name) > maxNameBytes
	for elem := range strings.SplitSeq(name, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return refuse(name, errInvalidName, nil)
		}
		long = long || len(elem) > maxElemBytes
	}
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return refuse(name, errInvalidName, nil)
	}
	// Before the other rules, so that the walk and a read give these
	// names the same reason: a client shown "\xff.md" as U+FFFD could
	// otherwise read or be credited with another note, really so named.
	if !utf8.ValidString(name) {
		return refuse(name, errNameNotUTF8, nil)
	}
	if long {
		return refuse(name, errNameTooLong, nil)
	}
	if !isNoteName(name) {
		return refuse(name, errNotNote, nil)
	}
	depth := 0
	for elem := range strings.SplitSeq(name, "/") {
		if isHidden(elem) {
			return refuse(name, errHidden, nil)
		}
		depth++
	}
	if depth-1 > MaxDepth {
		return refuse(name, errTooDeep, nil)
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

// isNoteName reports whether name has one of the note extensions.
func isNoteName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".txt":
		return true
	}
	return false
}

// shownName returns name as a walk reports a name it skips: with each byte
// that is not part of valid UTF-8 written as \xHH. A JSON encoder would
// replace such a byte with U+FFFD, making the name of a file skipped as
// not UTF-8 look like that of a note really named so; a name holding a
// backslash is never a note (checkName), so a shown name cannot be
// mistaken for one.
func shownName(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, "\\x%02x", name[i])
		} else {
			b.WriteString(name[i : i+size])
		}
		i += size
	}
	return b.String()
}
