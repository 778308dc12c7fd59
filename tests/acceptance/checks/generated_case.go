package checks

import (
	"fmt"
	"strings"

	"practice-notes/tests/acceptance/diagnose"
	"practice-notes/tests/acceptance/truth"
)

// caseBound is the most bytes of one text a failing case quotes.
const caseBound = 400

// smallestCase is the failing case of a generated reply, cut down to what
// shows the mistake: the seed that replays it, only the notes the
// diagnosis names (each cut to its start and end when long), the query,
// the true answer and what the server said, every text escaped as a Go
// string so that it pastes into a test.
func smallestCase(seed uint64, gr generatedReply, d diagnose.Diagnosis) []string {
	out := []string{fmt.Sprintf("seed: %d (replay: --seed %d)", seed, seed)}
	files := d.Files
	if len(files) > 3 {
		files = files[:3]
	}
	for _, f := range files {
		e, ok := gr.root.Now[f]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("note %q: not in the root", f))
		case e.Unreadable && e.Data == nil:
			out = append(out, fmt.Sprintf("note %q: unreadable (mode 000)", f))
		default:
			out = append(out, fmt.Sprintf("note %q (%d bytes): %s", f, len(e.Data), quoteCut(string(e.Data))))
		}
	}
	out = append(out, fmt.Sprintf("query: %s", quoteCut(gr.query)))
	hits := gr.answer.Under(0)
	switch {
	case gr.answer.Refusal == truth.MustRefuse:
		out = append(out, "true answer: a bounded error (over 200 characters)")
	case len(hits) == 0 && len(gr.answer.Hits) == 0:
		out = append(out, "true answer: no match")
	case len(hits) == 0:
		out = append(out, fmt.Sprintf("true answer: no passage required; %d may be returned", len(gr.answer.Hits)))
	}
	for i, h := range hits {
		if i == 5 {
			out = append(out, fmt.Sprintf("true answer: and %d more", len(hits)-i))
			break
		}
		out = append(out, fmt.Sprintf("true answer: %s line %d: %s", h.File, h.StartLine, quoteCut(h.Text)))
	}
	said := "a tool error"
	if !gr.refused {
		said = quoteCut(strings.Join(gr.reply.Strings, "\n"))
	}
	return append(out, "server said: "+said)
}

// quoteCut escapes s as a Go string, keeping its first and last bytes
// when it is longer than caseBound.
func quoteCut(s string) string {
	if len(s) <= caseBound {
		return fmt.Sprintf("%q", s)
	}
	head, tail := s[:caseBound/2], s[len(s)-caseBound/2:]
	return fmt.Sprintf("%q + … %d bytes … + %q", head, len(s)-len(head)-len(tail), tail)
}
