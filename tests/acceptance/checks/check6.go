package checks

import (
	"fmt"
	"regexp"
	"strings"

	"practice-notes/tests/acceptance/truth"

	"practice-notes/tests/acceptance/visible"
)

// Steps of check 6.
const (
	stepTooLong = "201 characters"
	stepLongest = "200 characters"
	stepBound   = "the bounded phrase"
)

// oversized and oversizedUTF are notes in the root over the size limit:
// plain ASCII, and over 102,400 bytes but under 102,400 characters, which
// a limit counted in characters lets through.
var (
	oversized    = bigNote("oversized-notes.md", "the oversized note oversized-notes.md", "oversizemark", "\nFiller paragraph %05d keeps this file above the size limit.\n")
	oversizedUTF = bigNote("oversized-accents.md", "the note oversized-accents.md (over 102,400 bytes, under 102,400 characters)", "accentmark", "\nCafé crème, brûlée, déjà vu: ééééééééééééééééééééééééééééééééééééé %05d.\n")
)

// bigNote is a secret note in the root padded with numbered copies of
// line past the size limit.
func bigNote(rel, label, prefix, line string) *Plant {
	return &Plant{Name: rel, Make: func(g *Ground) (Fixture, error) {
		f, err := g.secretNote(g.Root, rel, label, prefix)
		if err != nil {
			return f, err
		}
		return f, pad(f.Path, line)
	}}
}

// boundPhrase is in twelve paragraphs over four files of three folders,
// three each: a limit applied per file, not per call, shows. The first
// file holds the spread phrase too.
var boundPhrase = &Plant{Name: "bounded phrase", Make: func(g *Ground) (Fixture, error) {
	f := Fixture{Marker: "boundmark-" + g.Token(5), Count: 12,
		Files: []string{"bounded-a.md", "extra/bounded-b.md", "bounded/bounded-c.md", "bounded/bounded-d.md"}}
	spread, err := g.Plant(spreadPhrase)
	if err != nil {
		return f, err
	}
	for i, rel := range f.Files {
		var b strings.Builder
		fmt.Fprintf(&b, "# Bounded results fixture %d\n", i+1)
		if i == 0 {
			fmt.Fprintf(&b, "\nThe word %s is in several notes.\n", spread.Marker)
		}
		for j := 1; j <= 3; j++ {
			fmt.Fprintf(&b, "\nBounded result %02d mentions %s once.\n", i*3+j, f.Marker)
		}
		if err := g.Write(g.Root, rel, b.String()); err != nil {
			return f, err
		}
	}
	return f, nil
}}

var (
	clearLimitRe = regexp.MustCompile(`(?i)200|long|length|characters|limit|too many`)
	boundItemRe  = regexp.MustCompile(`(?i)Bounded result (\d\d) mentions`)
)

// check6Big are the notes over the size limit, in the order searched.
var check6Big = []*Plant{oversized, oversizedUTF}

var check6 = &Check{
	ID:       "6",
	Section:  SectionAcceptance,
	Title:    "an oversized query and an oversized file produce bounded errors",
	Hint:     "Refuse queries over 200 characters with a clear error, skip files over 100 KB without reading them, return at most 10 passages, and answer every call promptly.",
	Fixtures: []*Plant{oversized, oversizedUTF, boundPhrase},
	// Sends a query one character too long and one of 200 two-byte
	// characters, the phrases of the oversized notes and a phrase in more
	// paragraphs than one reply may hold, then sign-in to see that the
	// server still answers.
	Probe: func(w Wire, f *Facts) bool {
		search(w, stepTooLong, strings.Repeat("q", truth.MaxQuery+1))
		search(w, stepLongest, strings.Repeat("é", truth.MaxQuery))
		for _, p := range check6Big {
			search(w, p.Name, f.of(p).Marker)
		}
		search(w, stepBound, f.of(boundPhrase).Marker)
		search(w, stepStillAnswers, SignIn)
		return true
	},
	Needs: []need{needFixtures, needNotes, needExchanges, needTimeLimit},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		var parts []string

		ex, _ := f.step(stepTooLong)
		switch {
		case ex.TimedOut:
			v.fail(ex, "201-character query: %s", ex.Error)
		case ex.Error != "":
			v.Notes = append(v.Notes, fmt.Sprintf("201-character query rejected as a JSON-RPC error rather than an isError result: %s", visible.Clip(ex.Error, 120)))
			parts = append(parts, "201 chars → JSON-RPC error")
		case !toolResult(ex).IsError:
			v.fail(ex, "201-character query was accepted (isError false)")
		default:
			msg := strings.TrimSpace(ToolText(toolResult(ex)))
			switch {
			case msg == "":
				v.fail(ex, "201-character query: isError without a message")
			case !clearLimitRe.MatchString(msg):
				v.fail(ex, "201-character query: message does not say why: %q", visible.Clip(msg, 120))
			case len(msg) > 2000:
				v.fail(ex, "201-character query: error message is %d bytes", len(msg))
			default:
				if strings.Contains(msg, "\n") {
					v.Notes = append(v.Notes, "the length error spans several lines")
				}
				parts = append(parts, fmt.Sprintf("201 chars → isError %q", visible.Clip(msg, 80)))
			}
		}

		ex, _ = f.step(stepLongest)
		switch {
		case ex.NotSent:
		case ex.Error != "":
			v.fail(ex, "200-character query (400 UTF-8 bytes) rejected: %s", visible.Clip(ex.Error, 120))
		case toolResult(ex).IsError:
			v.fail(ex, "200-character query (400 UTF-8 bytes) rejected: %q", visible.Clip(ToolText(toolResult(ex)), 120))
		default:
			parts = append(parts, "200 chars (400 bytes) accepted")
		}

		for _, p := range check6Big {
			name := p.Name
			ex, _ := f.step(name)
			if !v.got(ex, "tools/call") {
				continue
			}
			rd := f.read(ex, f.of(p).Marker)
			if rd.IsError {
				v.Notes = append(v.Notes, fmt.Sprintf("the search touching %s answered isError: %q", name, visible.Clip(ToolText(toolResult(ex)), 120)))
			}
			switch {
			case rd.Names(name):
				v.fail(ex, "%s (over %d bytes) was searched and named as a result", name, truth.FileLimit)
			case contains(rd.Skipped, name):
				parts = append(parts, name+" named as not searched")
			default:
				parts = append(parts, name+" not returned")
			}
		}

		bound := f.of(boundPhrase)
		if ex, _ := f.step(stepBound); v.got(ex, "tools/call") {
			rd := f.read(ex, bound.Marker)
			labels := map[string]bool{}
			for _, t := range rd.Strings {
				for _, m := range boundItemRe.FindAllStringSubmatch(t, -1) {
					labels[m[1]] = true
				}
			}
			n := len(labels)
			if len(rd.Items) > 0 {
				n = len(rd.Items) // a result may hold more than its paragraph
			}
			spread := fmt.Sprintf("a phrase in %d paragraphs of %d files", bound.Count, len(bound.Files))
			switch {
			case n == 0 && len(rd.Results) == 0:
				v.fail(ex, "%s returned none of them", spread)
			case n > truth.MaxPassages:
				v.fail(ex, "%s returned %d passages (limit %d in all)", spread, n, truth.MaxPassages)
			case rd.Truncated != nil && !*rd.Truncated:
				v.fail(ex, "%s returned %d of them and says truncated: false", spread, n)
			default:
				parts = append(parts, fmt.Sprintf("%s → %d passages", spread, n))
			}
		}

		// Still alive after all that?
		if ex, _ := f.step(stepStillAnswers); ex.Error != "" {
			v.fail(ex, "server stopped answering after the oversized probes: %s", visible.Clip(ex.Error, 120))
		}
		slowest := int64(0)
		for _, e := range f.Exchanges {
			slowest = max(slowest, e.Millis)
		}
		parts = append(parts, fmt.Sprintf("slowest call %d ms (limit %s)", slowest, f.TimeLimit))
		v.Summary = strings.Join(parts, "; ")
		return v
	},
	Test:  6,
	Says:  `\boversized?\b|\btoo (?:large|big|long)\b|\bsize limits?\b|\bbounded errors?\b|\bdemasiado grande\b|\btrop (?:gros|grand|long)\w*|\bzu gross\w*|\bmuito grande\b|\btroppo grande\b|\bte groot\b|\bza duz\w*`,
	Parts: parts6,
}
