package checks

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAssemble: a sighting is charged once to its owner, with a count and
// a pointer on the check that saw it; warnings do not explain a failed
// check; a skip holds only without findings; the owner's hint is the
// default.
func TestAssemble(t *testing.T) {
	list := []*Check{check4, check5, check6, check22}
	found := Found{
		Outcomes: map[*Check]*Outcome{
			check4:  {Summary: "refused"},
			check5:  {Findings: []Finding{{Warn: true, Msg: "odd"}, {Msg: "served escape", Step: "e1", Quote: []string{"   -> q", "   <- r"}}}},
			check6:  {Skip: "no time"},
			check22: {Skip: "as root", Notes: []string{"ran as root"}},
		},
		Sightings: []Sighting{
			{Owner: check5, Key: "k", What: "text of escape", During: check4, Where: "the reply to tools/call", Step: "e2", Quote: []string{"   -> x"}},
			{Owner: check5, Key: "k", What: "text of escape", During: check4, Where: "the reply to tools/call", Step: "e3"},
			{Owner: check22, Key: "root", What: "the root's path", Where: "stderr", Line: "at /tmp/x", Warn: true, Hint: "no paths"},
		},
	}
	type got struct {
		ID       string
		Status   Status
		Evidence string
		Hint     string
		Notes    []string
	}
	var gotten []got
	for _, r := range Assemble(list, found) {
		gotten = append(gotten, got{r.Check.ID, r.Status, r.Evidence, r.Hint, r.Notes})
	}
	want := []got{
		{"4", StatusPass, "", "", []string{"the reply to tools/call showed text of escape; see check 5"}},
		{"5", StatusFail, "FAIL: served escape\n   -> q\n   <- r\nFAIL: during check 4: text of escape appeared in the reply to tools/call (2 times in the run)\n   -> x", check5.Hint, nil},
		{"6", StatusSkip, "no time", "", nil},
		{"22", StatusWarn, "WARN: the root's path appeared in stderr\n   at /tmp/x", "no paths", []string{"ran as root"}},
	}
	if diff := cmp.Diff(want, gotten); diff != "" {
		t.Errorf("assembled (-want +got):\n%s", diff)
	}
}

// TestNotGraded: a check whose every call went unanswered is skipped
// with the reason, whatever its own judge found (a pass or a fail resting
// on no answer), while a leak charged to it by a sighting still fails it.
func TestNotGraded(t *testing.T) {
	const why = "not graded: the server did not answer; see check 8"
	list := []*Check{check4, check5, check12}
	found := Found{
		Outcomes: map[*Check]*Outcome{
			check4:  {Summary: "5 searches returned no outside byte", NotGraded: why},
			check5:  {Findings: []Finding{{Msg: "tools/call got no answer", Step: "e1"}}, NotGraded: why},
			check12: {Summary: "6 of 6 refused", NotGraded: why},
		},
		Sightings: []Sighting{
			{Owner: check12, Key: "k", What: "text of root-old/private-notes.md", Where: "stderr", Line: "secret"},
		},
	}
	type got struct {
		ID                string
		Status            Status
		Summary, Evidence string
	}
	var gotten []got
	for _, r := range Assemble(list, found) {
		gotten = append(gotten, got{r.Check.ID, r.Status, r.Summary, r.Evidence})
	}
	want := []got{
		{"4", StatusSkip, why, why},
		{"5", StatusSkip, why, why},
		{"12", StatusFail, "text of root-old/private-notes.md appeared in stderr", "FAIL: text of root-old/private-notes.md appeared in stderr\n   secret"},
	}
	if diff := cmp.Diff(want, gotten); diff != "" {
		t.Errorf("assembled (-want +got):\n%s", diff)
	}
}

// TestSummaryFollowsFindings: a summary written while probing ("6 of 6
// refused") gives way to the findings once one stands.
func TestSummaryFollowsFindings(t *testing.T) {
	list := []*Check{check12, check19, check4}
	found := Found{Outcomes: map[*Check]*Outcome{
		check12: {Summary: "6 of 6 refused", Findings: []Finding{{Msg: "a blank query returned 3 passages"}, {Msg: "a number was searched"}}},
		check19: {Summary: "no outside byte", Findings: []Finding{{Msg: "shared-note.md was served", Warn: true}}},
		check4:  {Summary: "5 searches returned no outside byte"},
	}}
	var got []string
	for _, r := range Assemble(list, found) {
		got = append(got, string(r.Status)+": "+r.Summary)
	}
	want := []string{
		"fail: a blank query returned 3 passages (+1 more)",
		"warn: shared-note.md was served",
		"pass: 5 searches returned no outside byte",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summaries (-want +got):\n%s", diff)
	}
}

// TestCatalogIDs: ids are unique, the catalog holds 1-22 and 8.1-8.7,
// and every check has a section, title and hint.
func TestCatalogIDs(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range All() {
		if seen[c.ID] {
			t.Errorf("check %s listed twice", c.ID)
		}
		seen[c.ID] = true
		if c.Section == "" || c.Title == "" || c.Hint == "" {
			t.Errorf("check %s lacks a section, title or hint", c.ID)
		}
	}
	for i := 1; i <= 22; i++ {
		if id := strconv.Itoa(i); !seen[id] {
			t.Errorf("check %s is not in the catalog", id)
		}
	}
	for i := 1; i <= 7; i++ {
		if id := "8." + strconv.Itoa(i); !seen[id] {
			t.Errorf("check %s is not in the catalog", id)
		}
	}
}

// TestFixturesOwnedOnce: every fixture is planted and owned by one check,
// under a name no other fixture has, since the recorded facts and the
// leak rule know it by name; a Planting plants in a fixture a check owns.
func TestFixturesOwnedOnce(t *testing.T) {
	owners := map[*Plant]string{}
	named := map[string]string{}
	for _, c := range All() {
		for _, p := range c.Fixtures {
			if o, ok := owners[p]; ok {
				t.Errorf("fixture %s is owned by checks %s and %s", p.Name, o, c.ID)
			}
			owners[p] = c.ID
			if o, ok := named[p.Name]; ok && o != c.ID {
				t.Errorf("checks %s and %s both own a fixture named %s", o, c.ID, p.Name)
			} else if ok {
				t.Errorf("check %s owns two fixtures named %s", c.ID, p.Name)
			}
			named[p.Name] = c.ID
			if owner(p.Name) != ownerOf(p) {
				t.Errorf("fixture %s: owner by name is not its owner", p.Name)
			}
		}
	}
	for _, c := range All() {
		if c.Planting != nil && ownerOf(c.Planting.In) == nil {
			t.Errorf("check %s plants in a fixture no check owns", c.ID)
		}
	}
}
