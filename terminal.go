package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"golang.org/x/term"

	"practice-notes/search"
)

// isTerminal reports whether f is a terminal. A character device is not
// necessarily one (NUL on Windows, /dev/null everywhere), so the terminal
// itself is asked: term.IsTerminal makes the terminal ioctl on unix and
// calls GetConsoleMode on Windows.
func isTerminal(f *os.File) bool {
	// Control reaches the descriptor without Fd's switch to blocking mode.
	conn, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var tty bool
	if err := conn.Control(func(fd uintptr) { tty = term.IsTerminal(int(fd)) }); err != nil {
		return false
	}
	return tty
}

// waitingHint is the line serve prints when a person rather than a client
// started it, at a terminal on the system goos: end of input stops the
// server, and a Windows console ends input with Ctrl-Z then Enter.
func waitingHint(goos string) string {
	key := "Ctrl-D"
	if goos == "windows" {
		key = "Ctrl-Z then Enter"
	}
	return "practice-notes: waiting for an MCP client on stdin (press " + key + " to stop); to try a search, run: practice-notes search sign-in"
}

// Text from notes, file names and paths reaches the terminal through the
// CLI. A control character in it could move the cursor, clear the screen,
// set the window title or write the clipboard (OSC 52); a line or
// paragraph separator could break the line; a bidirectional override
// could reorder what is shown; and a zero-width character could hide a
// difference between two names that look the same. So each is printed as
// a visible escape such as \x1b, \u2028 or \u202e, and everything else as
// it is.

// needsEscape reports whether r must not reach a terminal as it is: a C0 or
// C1 control or DEL (category Cc); a format character (Cf: zero-width
// characters, bidirectional controls, the soft hyphen, tags); or a line or
// paragraph separator (Zl, Zp). A zero-width joiner inside an emoji
// sequence is escaped too: the sequence then shows as its parts.
func needsEscape(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
}

// visible returns s for one line of terminal output: every character that
// needsEscape, including tab and line breaks, is written as a Go escape.
func visible(s string) string {
	return escapeExcept(s, "")
}

// visiblePassage returns one line of a passage: as visible, but a tab is
// kept, since it only moves the cursor forward.
func visiblePassage(line string) string {
	return escapeExcept(line, "\t")
}

func escapeExcept(s, keep string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return needsEscape(r) && !strings.ContainsRune(keep, r) }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if needsEscape(r) && !strings.ContainsRune(keep, r) {
			q := strconv.QuoteRune(r) // '\x1b', '\r', '\u009b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// visibleJSON rewrites, as \u escapes, the characters in JSON text that
// encoding/json leaves raw but a terminal would act on (see needsEscape).
// They can occur only inside strings, so the text means the same to any
// JSON reader; controls below U+0020 are already escaped inside strings,
// and the newlines outside them are indentation. A character beyond
// U+FFFF, such as a tag character, is written as its UTF-16 surrogate
// pair, as JSON requires.
func visibleJSON(b []byte) []byte {
	raw := func(r rune) bool { return r >= 0x20 && needsEscape(r) }
	s := string(b)
	if !strings.ContainsFunc(s, raw) {
		return b
	}
	var out strings.Builder
	for _, r := range s {
		if !raw(r) {
			out.WriteRune(r)
			continue
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != unicode.ReplacementChar {
			fmt.Fprintf(&out, `\u%04x\u%04x`, r1, r2)
			continue
		}
		fmt.Fprintf(&out, `\u%04x`, r)
	}
	return []byte(out.String())
}

// printResult prints passages for a person: a header line per passage,
// then the passage indented, exactly as it is in the file except that
// control characters are shown as escapes (see visible).
func printResult(w io.Writer, r *search.Result) {
	for _, m := range r.Matches {
		header := fmt.Sprintf("%s:%d", visible(m.File), m.Line)
		if m.NoteID != "" {
			header += " (" + visible(m.NoteID) + ")"
		}
		if m.Clipped {
			header += " [clipped]"
		}
		fmt.Fprintln(w, header)
		for _, line := range strings.Split(m.Passage, "\n") {
			fmt.Fprintf(w, "    %s\n", visiblePassage(strings.TrimSuffix(line, "\r")))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, visible(r.Message))
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "  not searched: %s (%s)\n", visible(s.File), visible(s.Reason))
	}
}
