package checks

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"practice-notes/tests/acceptance/diagnose"
	"practice-notes/tests/acceptance/truth"
)

// The generated phase (package generate) searches a root built from a
// seed, in a process of its own after the fixed checks. Each reply is
// read as every other search reply is (ReadResult), set against the true
// answer over the root as it was when the reply was given, and what
// differs is named by package diagnose and charged to the check whose
// rule it breaks. Each mistake is one finding, on the first reply that
// showed it, with the smallest case that shows it.

// Generated is what the generated phase recorded.
type Generated struct {
	Seed uint64 `json:"seed"`
	// Before is the root as planted, After once a note was edited, one
	// added and one removed.
	Before truth.Tree `json:"-"`
	After  truth.Tree `json:"-"`
	// Queries holds the query of every search, by step; Changed marks
	// the steps sent after the changes.
	Queries   map[string]string `json:"queries"`
	Changed   map[string]bool   `json:"changed,omitempty"`
	Exchanges []Exchange        `json:"exchanges"`
	// Oversized lists the steps whose request lines are far over any
	// query (100 KiB, 2 MiB), in the order sent; AfterOversized is the
	// step sent after them, which must be answered too.
	Oversized      []string `json:"oversized,omitempty"`
	AfterOversized string   `json:"afterOversized,omitempty"`
	// Answers holds the true answer of each step (AnswerGenerated).
	Answers map[string]*truth.Answer `json:"-"`
	// Unsent counts the searches of the phase not sent because the
	// server had stopped answering (it hung or ended).
	Unsent int `json:"unsent,omitempty"`
}

// AnswerGenerated computes the true answer of every step of g over the
// root as it was when the step was sent.
func (g *Generated) AnswerGenerated() {
	g.Answers = map[string]*truth.Answer{}
	for step, q := range g.Queries {
		t := g.Before
		if g.Changed[step] {
			t = g.After
		}
		a := truth.Ask(t, q)
		g.Answers[step] = &a
	}
}

// generatedReply is one reply of the phase set against its true answer.
type generatedReply struct {
	ex      Exchange
	query   string
	root    diagnose.Root
	answer  truth.Answer
	refused bool
	rd      *Reading // nil when refused
	reply   diagnose.Reply
}

// JudgeGenerated judges every reply of the generated phase.
func JudgeGenerated(g *Generated) Verdict {
	replies, all := readGenerated(g)
	v := Verdict{Findings: append(judgeOversized(g), judgeUnanswered(g)...)}
	seen := map[diagnose.Mistake]bool{}
	for _, gr := range replies {
		ds := gr.diagnoses(all)
		for _, d := range ds {
			if seen[d.Mistake] {
				continue
			}
			seen[d.Mistake] = true
			owner := mistakeOwner[d.Mistake]
			v.Findings = append(v.Findings, Finding{Owner: owner, Warn: d.Warn, Step: gr.ex.Step,
				Msg:    fmt.Sprintf("generated case (seed %d), query %q: %s", g.Seed, visibleQuery(gr.query), d.Mistake),
				Detail: smallestCase(g.Seed, &gr, d, ds),
				Hint:   d.Hint})
		}
	}
	return v
}

// readGenerated reads every answered reply of the phase and sets it
// against its true answer; all holds the comparisons of those not
// refused.
func readGenerated(g *Generated) (replies []generatedReply, all []diagnose.Reply) {
	paras := map[bool][]Paragraph{false: paragraphsOf(g.Before), true: paragraphsOf(g.After)}
	for _, ex := range g.Exchanges {
		q, ok := g.Queries[ex.Step]
		if !ok || !answered(ex) {
			continue // no answer: judgeUnanswered's or judgeOversized's
		}
		root := diagnose.Root{Now: g.Before}
		if g.Changed[ex.Step] {
			root = diagnose.Root{Now: g.After, Before: g.Before}
		}
		a, ok := g.Answers[ex.Step]
		if !ok {
			continue // never asked: nothing to judge it by
		}
		gr := generatedReply{ex: ex, query: q, root: root, answer: *a}
		res := toolResult(ex)
		gr.refused = res == nil || res.IsError
		if !gr.refused {
			gr.rd = ReadResult(res, q, paras[g.Changed[ex.Step]])
			gr.reply = compare(root.Now, gr.rd, &gr.answer)
			all = append(all, gr.reply)
		}
		replies = append(replies, gr)
	}
	return replies, all
}

// diagnoses names what one reply shows, all being every reply's
// comparison (what the server shows it does right elsewhere, which it
// keeps in the reply's Shown).
func (gr *generatedReply) diagnoses(all []diagnose.Reply) []diagnose.Diagnosis {
	if m := diagnose.Limit(gr.query, gr.refused); m != "" {
		return []diagnose.Diagnosis{diagnose.Of(m)}
	}
	if gr.refused {
		return nil
	}
	gr.reply.Shown = diagnose.Learn(gr.root, all)
	return classify(gr.root, gr.reply)
}

// classify names the mistakes a reply shows over root, stale text
// included when notes changed.
func classify(root diagnose.Root, r diagnose.Reply) []diagnose.Diagnosis {
	out := diagnose.Classify(root, r)
	if root.Before != nil {
		if d, ok := diagnose.StaleText(root, r.Strings); ok {
			out = append(out, d)
		}
	}
	return out
}

// compare sets a reading against its true answer. A paragraph that
// several notes hold is presented for a note only when the reply names
// that note too: a server that keeps one copy missed the others.
func compare(t truth.Tree, rd *Reading, a *truth.Answer) diagnose.Reply {
	r := diagnose.Reply{Query: a.Query, Strings: rd.Strings}
	copies := map[string]int{}
	for _, h := range a.Hits {
		copies[h.Text]++
	}
	shows := func(h truth.Hit) bool { return holds(rd, h) && (copies[h.Text] == 1 || namesFile(rd, h.File)) }
	full := len(rd.Results) >= truth.MaxPassages || len(rd.Items) >= truth.MaxPassages || len(rd.Quoted) >= truth.MaxPassages
	quotesFile, hit := map[string]bool{}, map[string]bool{}
	for _, h := range a.Hits {
		hit[h.File] = true
		if shows(h) {
			quotesFile[h.File] = true
			r.Found = append(r.Found, h)
		}
	}
	for _, h := range a.Hits {
		switch {
		case shows(h):
		case h.Room == 0 && !full && (quotesFile[h.File] || !names(rd, h.File)):
			r.Missed = append(r.Missed, h)
		case namesFile(rd, h.File) && (h.Room == 0 && !full || rewritten(diagnose.Passage(t, h, rd.Strings))):
			// Named but not quoted as it is: inexact. A hit with room,
			// or one a full reply left out, is inexact only where the
			// reply holds a rewrite of it.
			r.Inexact = append(r.Inexact, h)
		}
	}
	named := append(slices.Clone(rd.Results), itemFiles(rd)...)
	for _, name := range named {
		rel := strings.TrimPrefix(cleanName(name), "/")
		if e, ok := t[rel]; ok && !e.Unreadable && !hit[rel] && !slices.Contains(r.Extra, rel) {
			r.Extra = append(r.Extra, rel)
		}
	}
	return r
}

// rewritten reports whether m names a rewrite of a whole paragraph, which
// a reply shows even where it may leave the paragraph out: a part of it
// may be another passage's text.
func rewritten(m diagnose.Mistake) bool {
	return m != diagnose.OtherBytes && m != diagnose.CutShort
}

func itemFiles(rd *Reading) []string {
	var out []string
	for _, it := range rd.Items {
		out = append(out, it.File)
	}
	return out
}

// maxReadPara is the longest paragraph given to the reading: the reading
// compares each with every string of a reply, and the longer ones are the
// size notes' filler, which no query finds.
const maxReadPara = 1024

// paragraphsOf lists the paragraphs of every note of t, for the reading.
func paragraphsOf(t truth.Tree) []Paragraph {
	names := make([]string, 0, len(t))
	for name := range t {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []Paragraph
	for _, name := range names {
		for _, p := range SplitParagraphs(string(t[name].Data)) {
			if len(p.Text) > maxReadPara {
				continue
			}
			p.File = name
			out = append(out, p)
		}
	}
	return out
}

// visibleQuery bounds a query for a message: the long ones are told by
// their length.
func visibleQuery(q string) string {
	if len(q) <= 60 {
		return q
	}
	return fmt.Sprintf("%.40s… (%d bytes)", q, len(q))
}
