package record

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A generated record is incomplete until a person fills its blanks,
// consistent with its own run, contradicted by a later run that fails a
// check it shows as passing, and regenerating keeps what a person wrote.
func TestGenerate(t *testing.T) {
	first := Generate(classRun(), "")
	v := Judge(first, classRun())
	want := []string{
		"Server source created: still has a ___ blank",
		"Exact passage manually checked: still has a ___ blank",
		"Client and transport: still has a ___ blank",
		"Integration demonstrated: still has a ___ blank",
	}
	if diff := cmp.Diff(want, summarise(v).Problems); diff != "" || !v.Generated || len(v.Contradictions) > 0 {
		t.Errorf("fresh record: generated %v, %s (-want +got):\n%s", v.Generated, v.State, diff)
	}
	filled := strings.NewReplacer(
		"___ (where the server's source is: folder or repository, and commit)", "notes/ at commit 1a2b3c",
		"___ (who compared the passage the server returned for sign-in with sample-notes.md, and on what date)", "wanjiru, 3 Dec",
		"any other client you connected, and its transport: ___", "no other client",
		"with an AI client (name it, or write pending): ___", "with an AI client: pending",
	).Replace(first)
	if v := Judge(filled, classRun()); v.State != Consistent {
		t.Errorf("filled record against its run: %+v", summarise(v))
	}
	v = Judge(filled, classRun("17"))
	got := summarise(v)
	if v.State != Contradicted || len(v.Contradictions) != 2 || v.Contradictions[0].Check != "17" || v.Contradictions[1].Check != "" {
		t.Errorf("filled record against a run failing 17: %+v", got)
	}
	again := Generate(classRun("17"), filled)
	for _, s := range []string{"**Server source created:** notes/ at commit 1a2b3c", "**Exact passage manually checked:** wanjiru, 3 Dec", "| 17 | FAIL |", "28 passed, 1 failed (failed: checks 17)"} {
		if !strings.Contains(again, s) {
			t.Errorf("regenerated record lacks %q:\n%s", s, again)
		}
	}
	if v := Judge(again, classRun("17")); v.State == Contradicted {
		t.Errorf("regenerated record against its run: %+v", summarise(v))
	}
}
