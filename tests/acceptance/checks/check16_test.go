package checks

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheck16RuntimeFilesNotCharged judges what the sandbox reports: what
// a runtime wrote by itself is named in a note and fails nothing; what the
// server wrote beside it fails the check; the notes are bounded.
func TestCheck16RuntimeFilesNotCharged(t *testing.T) {
	bun := "$BUN_RUNTIME_TRANSPILER_CACHE_PATH (12 files, 1204224 bytes, Bun's transpiled code)"
	many := make([]Leftover, 14)
	for i := range many {
		many[i] = Leftover{Process: fmt.Sprint(i + 1), Runtime: []string{bun}}
	}
	tests := []struct {
		name      string
		leftovers []Leftover
		findings  []string
		notes     []string
	}{
		{"only the runtime wrote", []Leftover{
			{Process: "1, 2", Runtime: []string{bun, "$HOME/.bun/install/cache (3 files, Bun)"}},
			{Process: "8"},
		}, nil, []string{
			"runtime files, not charged: " + bun + ", in the process of checks 1 and 2",
			"runtime files, not charged: $HOME/.bun/install/cache (3 files, Bun), in the process of checks 1 and 2",
		}},
		{"the server wrote beside its runtime", []Leftover{
			{Process: "9", Lines: []string{`$HOME/.history (8 bytes: "sign-in\n")`}, Runtime: []string{bun}},
		}, []string{`the process of check 9 wrote into its fresh HOME, TMPDIR or config folder: $HOME/.history (8 bytes: "sign-in\n")`},
			[]string{"runtime files, not charged: " + bun + ", in the process of check 9"}},
		{"bounded", many, nil, append(func() []string {
			var out []string
			for i := range 12 {
				out = append(out, fmt.Sprintf("runtime files, not charged: %s, in the process of check %d", bun, i+1))
			}
			return out
		}(), "runtime files, not charged: … and 2 more places")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := check16.Judge(&Facts{HomeDirs: len(tt.leftovers), Leftovers: tt.leftovers})
			var got []string
			for _, f := range v.Findings {
				got = append(got, f.Msg)
			}
			if diff := cmp.Diff(tt.findings, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.notes, v.Notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}
