package diagnose

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"practice-notes/tests/acceptance/truth"
)

// Limit names the mistake a server's refusal, or its search, of query
// shows about the 200-character limit, or "" when it shows none. A query
// over the limit by one count only is judged by which count it is over:
// the specification counts characters.
func Limit(query string, refused bool) Mistake {
	chars := utf8.RuneCountInString(strings.TrimSpace(query))
	units := len(utf16.Encode([]rune(query)))
	switch {
	case refused && chars <= truth.MaxQuery && units > truth.MaxQuery:
		return LimitUTF16
	case refused && chars <= truth.MaxQuery && len(query) > truth.MaxQuery:
		return LimitBytes
	case refused && chars == truth.MaxQuery:
		return LimitOffByOne
	case !refused && chars == truth.MaxQuery+1:
		return LimitOffByOne
	case !refused && chars > truth.MaxQuery+1:
		return NoLimit
	}
	return ""
}

// Of returns the diagnosis of m, shown by files: for a mistake named
// outside a reply's classification (a limit, a long request line).
func Of(m Mistake, files ...string) Diagnosis { return diagnosis(m, files...) }
