package harness

import (
	"strings"
	"testing"
)

// TestLostStart: a server that never started fails every later check
// fast (notStarted); one that had started loses only the check whose
// start failed, and after maxLostStarts failed starts in a row the rest
// are not run, with the reason; a start that succeeds in between resets
// the count.
func TestLostStart(t *testing.T) {
	tests := []struct {
		name           string
		processes      int
		lost           []string // checks whose start failed, in order
		startedBetween bool     // a start succeeded after the first
		notStarted     string
		notRun         bool
	}{
		{"never started", 0, []string{"1"}, false, "1", false},
		{"one failed start over the traps", 5, []string{"20"}, false, "", false},
		{"two in a row", 5, []string{"20", "22"}, false, "", true},
		{"two with a start between", 5, []string{"20", "22"}, true, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &runner{rep: &Report{Processes: tt.processes}}
			for i, id := range tt.lost {
				if i > 0 && tt.startedBetween {
					r.lostStarts = 0 // what a successful start does
				}
				r.lostStart(id)
			}
			if r.notStarted != tt.notStarted {
				t.Errorf("notStarted %q, want %q", r.notStarted, tt.notStarted)
			}
			if got := r.notRun != ""; got != tt.notRun {
				t.Errorf("notRun %q, want set: %v", r.notRun, tt.notRun)
			}
			if r.notRun != "" && !strings.HasPrefix(r.notRun, "not run: ") {
				t.Errorf("notRun %q does not say the checks were not run", r.notRun)
			}
		})
	}
}
