package main

import "unicode/utf8"

// clip shortens s to at most n bytes on a UTF-8 boundary, marking the cut,
// so that client-supplied text quoted in a reply or a log line stays short.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// maxQuotedKey bounds a JSON key quoted back in an error message.
const maxQuotedKey = 40
