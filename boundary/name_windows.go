package boundary

import (
	"errors"
	"strings"
)

// errWindowsName is the reason a name Windows would not open as the file
// it names is refused.
var errWindowsName = errors.New("a name Windows reserves or changes (device name, \":\" stream, trailing dot or space, or a character Windows forbids)")

// checkWindowsName refuses a checked name that has an element Windows
// would not open as the file that element names (see windowsNameOK).
func checkWindowsName(name string) error {
	for elem := range strings.SplitSeq(name, "/") {
		if !windowsNameOK(elem) {
			return errWindowsName
		}
	}
	return nil
}

// windowsNameOK reports whether Windows opens elem, one element of a path,
// as a file of exactly that name
// (https://learn.microsoft.com/windows/win32/fileio/naming-a-file). It does
// not for:
//   - a device name (CON, PRN, AUX, NUL, COM0 to COM9, LPT0 to LPT9, the
//     superscript COM¹ to LPT³, CONIN$, CONOUT$), in any case, with any
//     extension and with spaces before it: Windows 10 opens the device
//     for "nul.md", Windows 11 only for some such names, so all are refused
//     for one rule on every version;
//   - a name holding ":", which names an alternate data stream of another
//     file ("note.md:hidden" is a stream of note.md);
//   - a name ending in "." or " ", which Windows strips ("note.md." opens
//     note.md);
//   - a name holding a control character or any of < > " | ? *, which
//     Windows forbids, "?" and "*" being wildcards to some calls.
func windowsNameOK(elem string) bool {
	if strings.HasSuffix(elem, ".") || strings.HasSuffix(elem, " ") {
		return false
	}
	if strings.ContainsFunc(elem, func(r rune) bool { return r < 0x20 || strings.ContainsRune(`:<>"|?*`, r) }) {
		return false
	}
	base, _, _ := strings.Cut(elem, ".")
	return !isDeviceName(strings.TrimRight(base, " "))
}

// isDeviceName reports whether base, a name without its extension, is one
// of the names Windows keeps for devices, in any case.
func isDeviceName(base string) bool {
	switch strings.ToUpper(base) {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) < 4 {
		return false
	}
	switch strings.ToUpper(base[:3]) {
	case "COM", "LPT":
		switch n := base[3:]; n {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}
