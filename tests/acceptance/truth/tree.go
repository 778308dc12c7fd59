package truth

import (
	"bytes"
	"path"
	"strings"
	"unicode/utf8"
)

// Limits the specification sets.
const (
	// FileLimit is the largest note, in bytes, a server may search.
	FileLimit = 102400
	// fileLimitSI is "100 KB" read as 100,000 bytes: files between the two
	// limits are in the answer with RoomSize.
	fileLimitSI = 100000
	// MaxPassages is the most passages one reply may hold.
	MaxPassages = 10
	// MaxQuery is the longest query accepted, in characters.
	MaxQuery = 200
)

// Kind is what an entry of a [Tree] is.
type Kind uint8

// The kinds of entry.
const (
	Regular Kind = iota
	Dir
	Symlink
	FIFO
	Other // a device, a socket
)

// Entry is one file-system entry of a root.
type Entry struct {
	Kind Kind
	// Data is a regular file's contents; for a file over FileLimit bytes
	// it may be only its first FileLimit+1 bytes.
	Data []byte
	// Target is a symbolic link's target, as written.
	Target string
	// Links is a regular file's count of hard links; 0 means one.
	Links int
	// Unreadable says the file's mode lets nobody read it, or that it
	// could not be opened. Data is nil when it could not be read.
	Unreadable bool
}

// Tree describes a root: root-relative slash-separated path to entry. The
// root itself is not in it; a directory is implied by the paths below it.
type Tree map[string]Entry

// Room is the leeway the specification leaves for a hit: a set of reasons
// a correct server may leave it out. The zero Room is none.
type Room uint16

// Each reason is explained in the package documentation.
const (
	RoomNoteExt Room = 1 << iota
	RoomOtherText
	RoomHidden
	RoomHardLink
	RoomUnreadable
	RoomSize
	RoomEncoding
	RoomInWord
	RoomSpace
	RoomWhiteLine
	RoomFullFold
	RoomWrap
)

// AnyRoom is every reason at once: [Answer.Under] with it lists every hit.
const AnyRoom = RoomWrap<<1 - 1

// String lists the reasons, for messages.
func (r Room) String() string {
	if r == 0 {
		return "none"
	}
	all := [...]string{"not named .md", "not a note's name", "hidden", "hard-linked", "unreadable by its mode",
		"between 100,000 and 102,400 bytes", "not UTF-8", "only inside longer words", "only with other white space",
		"only across a line of white space", "only under full case folding",
		"only with white space other than one space between its words"}
	var names []string
	for i, n := range all {
		if r&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// fileRoom says whether the entry at name holds searchable text, and with
// what room; ok is false for an entry never in an answer.
func (t Tree) fileRoom(name string, e Entry) (room Room, ok bool) {
	if e.Kind != Regular || e.Data == nil || len(e.Data) > FileLimit || bytes.IndexByte(e.Data, 0) >= 0 || t.throughLink(name) {
		return 0, false
	}
	if !utf8.Valid(e.Data) {
		room |= RoomEncoding
	}
	if len(e.Data) > fileLimitSI {
		room |= RoomSize
	}
	if e.Links > 1 {
		room |= RoomHardLink
	}
	if e.Unreadable {
		room |= RoomUnreadable
	}
	for _, elem := range strings.Split(name, "/") {
		if strings.HasPrefix(elem, ".") {
			room |= RoomHidden
		}
	}
	switch ext := path.Ext(name); {
	case ext == ".md":
	case strings.EqualFold(ext, ".md") || strings.EqualFold(ext, ".markdown") || strings.EqualFold(ext, ".txt"):
		room |= RoomNoteExt
	default:
		room |= RoomOtherText
	}
	return room, true
}

// throughLink reports whether a directory above name is a link (or not a
// directory at all), so that name is not reached without following one.
func (t Tree) throughLink(name string) bool {
	for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name[:i], '/') {
		if e, ok := t[name[:i]]; ok && e.Kind != Dir {
			return true
		}
	}
	return false
}
