package checks

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/diagnose"
	"practice-notes/tests/acceptance/generate"
	"practice-notes/tests/acceptance/truth"
)

// fakeServer answers a search over a tree the way a server with one
// mistake would: hits lists what it finds, passage how it quotes one,
// refuse whether it refuses the query.
type fakeServer struct {
	hits    func(t truth.Tree, a truth.Answer) []truth.Hit
	passage func(string) string
	refuse  func(q string) bool
	// stale answers from the root as it was before the changes.
	stale bool
}

func correctHits(_ truth.Tree, a truth.Answer) []truth.Hit { return a.Under(0) }

func (f fakeServer) reply(t truth.Tree, a truth.Answer) string {
	q := a.Query
	refuse := f.refuse
	if refuse == nil {
		refuse = func(q string) bool { return truth.Ask(nil, q).Refusal == truth.MustRefuse }
	}
	if refuse(q) {
		return `{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"query too long"}]}}`
	}
	hits := f.hits(t, a)
	type match struct {
		File    string `json:"file"`
		Passage string `json:"passage"`
	}
	body := struct {
		Matches []match `json:"matches"`
		Message string  `json:"message,omitempty"`
	}{Matches: []match{}}
	for i, h := range hits {
		if i == truth.MaxPassages {
			break
		}
		p := h.Text
		if f.passage != nil {
			p = f.passage(p)
		}
		body.Matches = append(body.Matches, match{h.File, p})
	}
	if len(hits) == 0 {
		body.Message = "No notes matched."
	}
	text, _ := json.Marshal(body)
	res, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": string(text)}}})
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":%s}`, res)
}

// generatedSets holds each test seed's phase with its true answers,
// computed once for every fake server.
var generatedSets = map[uint64]*Generated{}

func init() {
	for seed := uint64(1); seed <= 3; seed++ {
		generatedSets[seed] = generatedSet(seed)
	}
}

// generatedSet builds the phase of seed, with its true answers.
func generatedSet(seed uint64) *Generated {
	set := generate.Build(seed)
	g := &Generated{Seed: seed, Before: set.Tree(), After: set.Changed(), Queries: map[string]string{}, Changed: map[string]bool{}}
	add := func(q generate.Query, after bool) {
		step := fmt.Sprintf("generated %d: %s", len(g.Queries)+1, q.From)
		g.Queries[step], g.Changed[step] = q.Text, after
	}
	for _, q := range set.Before {
		add(q, false)
	}
	for _, q := range set.After {
		add(q, true)
	}
	g.AnswerGenerated()
	return g
}

// generatedRun plays the phase of seed against f.
func generatedRun(seed uint64, f fakeServer) *Generated {
	return playGenerated(generatedSets[seed], f)
}

// playGenerated records f's replies to every step of g.
func playGenerated(set *Generated, f fakeServer) *Generated {
	g := *set
	g.Exchanges = nil
	steps := make([]string, 0, len(g.Queries))
	for step := range g.Queries {
		steps = append(steps, step)
	}
	slices.SortFunc(steps, func(a, b string) int { return stepNumber(a) - stepNumber(b) })
	for _, step := range steps {
		t := g.Before
		if g.Changed[step] {
			t = g.After
		}
		a := *g.Answers[step]
		if f.stale && g.Changed[step] {
			t, a = g.Before, truth.Ask(g.Before, a.Query)
		}
		g.Exchanges = append(g.Exchanges, Exchange{Step: step, Reply: f.reply(t, a)})
	}
	return &g
}

func stepNumber(step string) int {
	var n int
	fmt.Sscanf(step, "generated %d:", &n)
	return n
}

// charged lists a verdict's findings as "owner: mistake" or "owner warn: mistake".
func charged(v Verdict) []string {
	out := []string{}
	for _, f := range v.Findings {
		owner := "-"
		if f.Owner != nil {
			owner = f.Owner.ID
		}
		if f.Warn {
			owner += " warn"
		}
		_, m, _ := strings.Cut(f.Msg, ": ")
		m = m[strings.Index(m, ": ")+2:]
		out = append(out, owner+": "+m)
	}
	slices.Sort(out)
	return out
}

func isLastOf(t truth.Tree, h truth.Hit) bool {
	return strings.HasSuffix(strings.TrimRight(string(t[h.File].Data), "\r\n"), h.Text)
}

// The mistakes a learner's server makes, each written as a fake server,
// and what the generated phase charges it with.
var generatedMutants = []struct {
	name string
	f    fakeServer
	want []diagnose.Mistake
}{
	{"correct", fakeServer{hits: correctHits}, nil},
	{"last paragraph never flushed", fakeServer{hits: func(t truth.Tree, a truth.Answer) []truth.Hit {
		var out []truth.Hit
		for _, h := range a.Under(0) {
			if !isLastOf(t, h) {
				out = append(out, h)
			}
		}
		return out
	}}, []diagnose.Mistake{diagnose.LastParagraph}},
	{"only the first passage of a file", fakeServer{hits: func(t truth.Tree, a truth.Answer) []truth.Hit {
		var out []truth.Hit
		for _, h := range a.Under(0) {
			if !slices.ContainsFunc(out, func(o truth.Hit) bool { return o.File == h.File }) {
				out = append(out, h)
			}
		}
		return out
	}}, []diagnose.Mistake{diagnose.LaterPassages}},
	{"deduplicated by text", fakeServer{hits: func(t truth.Tree, a truth.Answer) []truth.Hit {
		var out []truth.Hit
		for _, h := range a.Under(0) {
			if !slices.ContainsFunc(out, func(o truth.Hit) bool { return o.Text == h.Text }) {
				out = append(out, h)
			}
		}
		return out
	}}, []diagnose.Mistake{diagnose.SameText}},
	{"TrimRight", fakeServer{hits: correctHits, passage: func(p string) string {
		lines := strings.Split(p, "\n")
		for i := range lines {
			lines[i] = strings.TrimRight(lines[i], " \t\r")
		}
		return strings.Join(lines, "\n")
	}}, []diagnose.Mistake{diagnose.TrailingSpace}},
	{"UTF-16 length limit", fakeServer{hits: correctHits, refuse: func(q string) bool {
		return len(utf16.Encode([]rune(q))) > truth.MaxQuery
	}}, []diagnose.Mistake{diagnose.LimitUTF16}},
	{"matches across a blank line", fakeServer{hits: acrossBlank}, []diagnose.Mistake{diagnose.AcrossBlank}},
	{"decodes invalid UTF-8 leniently", fakeServer{hits: func(t truth.Tree, a truth.Answer) []truth.Hit { return a.Under(truth.RoomEncoding) },
		passage: func(p string) string { return strings.ToValidUTF8(p, "\uFFFD") }}, []diagnose.Mistake{diagnose.Replacement}},
	{"notes read once at start-up", fakeServer{hits: correctHits, stale: true}, []diagnose.Mistake{diagnose.AddedNote, diagnose.Stale}},
	{"stops at the first unreadable note", fakeServer{hits: func(t truth.Tree, a truth.Answer) []truth.Hit {
		var out []truth.Hit
		for _, h := range a.Under(0) {
			if !slices.ContainsFunc(a.Unread, func(u string) bool { return walkOrderBefore(u, h.File) }) {
				out = append(out, h)
			}
		}
		return out
	}}, []diagnose.Mistake{diagnose.AfterUnreadable}},
}

// acrossBlank adds, for every note that holds the query only across a
// blank line, the note's text as one passage.
func acrossBlank(t truth.Tree, a truth.Answer) []truth.Hit {
	out := a.Under(0)
	squash := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	for name, e := range t {
		if len(a.Hits) == 0 && a.Refusal != truth.MustRefuse && strings.TrimSpace(a.Query) != "" && strings.Contains(squash(string(e.Data)), squash(a.Query)) {
			out = append(out, truth.Hit{File: name, Text: strings.TrimSpace(string(e.Data))})
		}
	}
	return out
}

// walkOrderBefore reports whether a comes before b in a sorted walk.
func walkOrderBefore(a, b string) bool {
	pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}

func TestJudgeGeneratedMutants(t *testing.T) {
	for _, m := range generatedMutants {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			for seed := uint64(1); seed <= 3; seed++ {
				checkMutant(t, seed, playGenerated(generatedSets[seed], m.f), m.want)
			}
		})
	}
}

// checkMutant asserts that the generated phase names want, and only
// want, on g; nothing at all when want is empty.
func checkMutant(t *testing.T, seed uint64, g *Generated, want []diagnose.Mistake) {
	t.Helper()
	got := JudgeGenerated(g)
	var names []diagnose.Mistake
	for _, f := range got.Findings {
		for _, w := range want {
			if strings.Contains(f.Msg, string(w)) {
				names = append(names, w)
			}
		}
	}
	if want == nil && len(got.Findings) > 0 {
		t.Errorf("seed %d: a correct server got findings:\n%s", seed, strings.Join(charged(got), "\n"))
	}
	if want != nil && !cmp.Equal(names, want) {
		t.Errorf("seed %d: want %q named, got:\n%s", seed, want, strings.Join(charged(got), "\n"))
	}
}

// TestGeneratedSmallestCase: a generated failure carries its seed, what
// shrinking left out, the notes kept, the query, the true answer and
// what the server said, escaped so that they paste into a test.
func TestGeneratedSmallestCase(t *testing.T) {
	v := JudgeGenerated(generatedRun(2, generatedMutants[1].f))
	if len(v.Findings) == 0 {
		t.Fatal("no finding for a server that drops last paragraphs")
	}
	f := v.Findings[0]
	var kinds []string
	for _, line := range f.Detail {
		kind, _, _ := strings.Cut(line, ":")
		if strings.HasPrefix(kind, "note ") {
			kind = "note"
		}
		if !slices.Contains(kinds, kind) {
			kinds = append(kinds, kind)
		}
		if strings.ContainsAny(line, "\n\r") {
			t.Errorf("a line of the case holds a raw line break: %q", line)
		}
	}
	if diff := cmp.Diff([]string{"seed", "shrunk", "note", "query", "true answer", "server said"}, kinds); diff != "" {
		t.Errorf("lines of the case (-want +got):\n%s\n%s", diff, strings.Join(f.Detail, "\n"))
	}
	if !strings.Contains(f.Detail[0], "--seed 2") {
		t.Errorf("the case does not say how to replay it: %q", f.Detail[0])
	}
}

// TestGeneratedLimitCase: a mistake of the query's length alone shows
// the query and the whole reply, no note.
func TestGeneratedLimitCase(t *testing.T) {
	v := JudgeGenerated(generatedRun(1, fakeServer{hits: correctHits, refuse: func(string) bool { return false }}))
	var limits int
	for _, f := range v.Findings {
		if !strings.Contains(f.Msg, string(diagnose.NoLimit)) && !strings.Contains(f.Msg, string(diagnose.LimitOffByOne)) {
			continue
		}
		limits++
		for _, line := range f.Detail {
			if strings.HasPrefix(line, "note ") || strings.HasPrefix(line, "shrunk:") {
				t.Errorf("%s: the case shows %q", f.Msg, line)
			}
		}
		if last := f.Detail[len(f.Detail)-1]; !strings.HasPrefix(last, `server said: "{\"matches\":`) {
			t.Errorf("%s: the case ends %q, not with the whole reply", f.Msg, last)
		}
	}
	if limits == 0 {
		t.Errorf("no limit finding for a server that searches any query:\n%s", strings.Join(charged(v), "\n"))
	}
}
