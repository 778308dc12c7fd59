package record

import "testing"

// Judge reads text a learner wrote: whatever it holds, it returns a state
// and quotes only lines of the record.
func FuzzJudge(f *testing.F) {
	for _, lr := range learnerRecords {
		f.Add(lr.record)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v := Judge(text, classRun("5", "8"))
		switch v.State {
		case Missing, Contradicted, Incomplete, Review, Consistent:
		default:
			t.Fatalf("state %q", v.State)
		}
		if v.UnreadLines != len(v.Unread) {
			t.Fatalf("%d unread lines counted, %d quoted", v.UnreadLines, len(v.Unread))
		}
		lines := map[int]bool{}
		for _, c := range v.Contradictions {
			if lines[c.Line] {
				t.Fatalf("line %d contradicted twice", c.Line)
			}
			lines[c.Line] = true
			if len(c.Checks) == 0 && c.Evidence == "" {
				t.Fatalf("contradiction without a refuting check or a reason: %+v", c)
			}
		}
	})
}
