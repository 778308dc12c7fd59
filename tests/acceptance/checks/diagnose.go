package checks

import (
	"practice-notes/tests/acceptance/diagnose"
	"practice-notes/tests/acceptance/truth"
)

// The hard cases' misses and inexact passages are named by package
// diagnose from how the reply differs from the true answer, not from what
// the probe was written to catch: a server that folds case but drops a
// note's last paragraph is told about its last paragraph.

// hardTree describes the hard-case notes as planted under truth.HardDir.
func hardTree() truth.Tree {
	notes, _ := truth.HardCases()
	t := truth.Tree{}
	for _, n := range notes {
		t[n.Rel] = truth.Entry{Kind: truth.Regular, Data: []byte(n.Text)}
	}
	return t
}

// hardReply sets a reading of a reply to a hard-case probe against its
// true answer.
func hardReply(rd *Reading, a *truth.Answer) diagnose.Reply {
	r := diagnose.Reply{Query: a.Query, Missed: missed(rd, a), Strings: rd.Strings}
	for _, h := range a.Hits {
		if holds(rd, h) {
			r.Found = append(r.Found, h)
		}
	}
	return r
}

// diagnoseMiss names why r missed its hits, by what the server's other
// replies (all) show it does right.
func diagnoseMiss(r diagnose.Reply, all []diagnose.Reply) diagnose.Diagnosis {
	root := diagnose.Root{Now: hardTree()}
	r.Shown = diagnose.Learn(root, all)
	return diagnose.Classify(root, r)[0]
}
