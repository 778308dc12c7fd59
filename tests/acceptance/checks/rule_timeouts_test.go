package checks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTimeoutRule: a request that timed out is charged to check 6 once,
// unless a check already failed on it; the generated phase's are named
// by the phase and its seed.
func TestTimeoutRule(t *testing.T) {
	generated := Timeout{Check: "1", Method: "tools/call search_notes", Step: "exchange 124", Phase: "the generated phase (seed 5)"}
	charged := generated
	charged.Charged = true
	tests := []struct {
		name     string
		timeouts []Timeout
		want     string
	}{
		{"none", nil, "status: pass\n"},
		{"a fixed check's, not charged", []Timeout{{Check: "19", Method: "tools/call", Step: "exchange 9"}},
			"status: fail\nfail: during check 19: tools/call got no answer within 10s\n  step: exchange 9\n"},
		{"check 6's own", []Timeout{{Check: "6", Method: "tools/call", Step: "exchange 9"}}, "status: pass\n"},
		{"the generated phase's, not charged", []Timeout{generated},
			"status: fail\nfail: during the generated phase (seed 5): tools/call search_notes got no answer within 10s\n  step: exchange 124\n"},
		{"the generated phase's, charged to check 1 by its judge", []Timeout{charged}, "status: pass\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(TimeoutRule().Judge(&Facts{TimeLimit: "10s", Timeouts: tt.timeouts}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
		})
	}
}
