package checks

import (
	"slices"
	"testing"
)

// TestScheduleRunsEveryCheckOnce: every check but those that judge the
// whole run is probed in exactly one stage, in report order within it.
func TestScheduleRunsEveryCheckOnce(t *testing.T) {
	seen := map[*Check]int{}
	for _, st := range Schedule() {
		for i, c := range st.Checks {
			seen[c]++
			if i > 0 && slices.Index(All(), c) < slices.Index(All(), st.Checks[i-1]) {
				t.Errorf("check %s runs after check %s in its stage, against report order", c.ID, st.Checks[i-1].ID)
			}
		}
	}
	for _, c := range All() {
		want := 1
		if c == FileStates() || c == HomeAndTemp() {
			want = 0
		}
		if seen[c] != want {
			t.Errorf("check %s is in %d stages, want %d", c.ID, seen[c], want)
		}
	}
	if st := Schedule(); st[1].Kind != OwnProcess || st[1].Checks[0] != Integration() {
		t.Errorf("the second stage is not check 8's own process")
	}
}
