package main

import (
	"fmt"
	"regexp"
	"strings"
)

// Patterns of what legitimately differs between two runs of the harness
// on one server with one --seed. Each is replaced by a fixed word, so a
// change anywhere else still shows.
var (
	// An RFC 3339 time, or the record's "2026-12-07 05:26 UTC".
	datePattern = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}| UTC)?`)
	// A time of day, as the evidence's file listings give mtimes.
	clockPattern = regexp.MustCompile(`\b\d{2}:\d{2}:\d{2}(\.\d+)?\b`)
	// A folder os.MkdirTemp made: its name ends in random digits.
	tempPattern = regexp.MustCompile(`(/(?:tmp|var/tmp)/[A-Za-z0-9._-]*?-)[0-9]{4,}\b`)
	// A duration as Go prints it (1.5s, 2m3s, 850µs) or as the
	// reports write it (18 ms), and a JSON field counting milliseconds.
	durationPattern = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?(ns|µs|us|ms|s|m|h)([0-9]+(\.[0-9]+)?(ns|µs|us|ms|s|m))*\b|\b[0-9]+(\.[0-9]+)? (ms|µs|ns)\b`)
	// A cell or summary cut to a fixed width ends at another place when
	// a time before the cut is wider: what follows the first time of a
	// cut text is dropped, as is a number the cut split.
	cutNumberPattern = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?( [mµnu]?s?)?…`)
	cutTailPattern   = regexp.MustCompile(`<dur>[^|\n"…]*…`)
	msFieldPattern   = regexp.MustCompile(`("(?:[a-zA-Z]*Ms|ms)": )[0-9]+`)
	// How much a server wrote to stderr: a server that logs its root
	// writes the temp folder's name, whose random digits vary in number.
	stderrPattern = regexp.MustCompile(`(stderr had |"stderrBytes": )[0-9]+`)
	// A process id as the reports name one.
	pidPattern = regexp.MustCompile(`\b(pid|PID) [0-9]+\b`)
	// The start of a token that a cut to a fixed width split.
	cutHexPattern = regexp.MustCompile(`[0-9a-fA-F]+…`)
	// A run of hex digits long enough to be a fixture token (the
	// shortest the harness draws is four bytes, eight digits).
	hexPattern = regexp.MustCompile(`[0-9a-fA-F]{8,}`)
)

// normalizer rewrites one run's reports so that they compare equal to
// another run's exactly when the runs differ only in times, temp folders,
// process ids and the random fixture tokens.
type normalizer struct {
	// shared holds the hex words (lower-cased) both runs wrote: constants,
	// not tokens, so they stay as they are.
	shared map[string]bool
	// tokens numbers this run's other hex words in the order they first
	// appear, across all its files: a token maps to one name everywhere.
	tokens map[string]int
}

// newNormalizers returns the normalizers of two runs whose files hold the
// texts a and b.
func newNormalizers(a, b []string) (*normalizer, *normalizer) {
	wa, wb := hexWords(a), hexWords(b)
	shared := map[string]bool{}
	for w := range wa {
		if wb[w] {
			shared[w] = true
		}
	}
	return &normalizer{shared: shared, tokens: map[string]int{}},
		&normalizer{shared: shared, tokens: map[string]int{}}
}

// hexWords returns the lower-cased hex words of the texts, after the
// patterns that come before tokens are applied.
func hexWords(texts []string) map[string]bool {
	words := map[string]bool{}
	for _, t := range texts {
		for _, w := range hexPattern.FindAllString(fixed(t), -1) {
			words[strings.ToLower(w)] = true
		}
	}
	return words
}

// fixed replaces the dates, times of day and temp folders, which may hold digit runs
// that would otherwise read as hex words.
func fixed(s string) string {
	s = datePattern.ReplaceAllString(s, "<date>")
	s = clockPattern.ReplaceAllString(s, "<clock>")
	return tempPattern.ReplaceAllString(s, "${1}<n>")
}

// normalize returns s with everything that legitimately varies replaced.
// Files of one run must be normalized in a fixed order, since tokens are
// numbered as they first appear.
func (n *normalizer) normalize(s string) string {
	s = fixed(s)
	s = cutHexPattern.ReplaceAllString(s, "<cut>…")
	s = hexPattern.ReplaceAllStringFunc(s, func(w string) string {
		key := strings.ToLower(w)
		if n.shared[key] {
			return w
		}
		i, ok := n.tokens[key]
		if !ok {
			i = len(n.tokens) + 1
			n.tokens[key] = i
		}
		// "CRÈME-…-B4A1D1D8" is the upper-cased token, renamed alike: a
		// token of digits only has no case, so the case is not compared.
		return fmt.Sprintf("<hex%d>", i)
	})
	s = msFieldPattern.ReplaceAllString(s, "${1}0")
	s = stderrPattern.ReplaceAllString(s, "${1}<n>")
	s = durationPattern.ReplaceAllString(s, "<dur>")
	s = cutNumberPattern.ReplaceAllString(s, "<dur>…")
	s = cutTailPattern.ReplaceAllString(s, "<dur>…")
	return pidPattern.ReplaceAllString(s, "$1 <pid>")
}
