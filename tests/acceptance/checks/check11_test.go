package checks

import (
	"strings"
	"testing"

	"practice-notes/tests/acceptance/truth"
)

// TestCheck11OversizedTruncated: a server that reads an oversized note
// cut at the limit, appends "[truncated]" and finds "[" there broke check
// 6's rule, not check 11's; a note of normal size named for "[" that does
// not hold it is still check 11's.
func TestCheck11OversizedTruncated(t *testing.T) {
	big := "# Oversized\n\noversizemark-1 " + strings.Repeat("Filler paragraph keeps this file above the size limit.\n", truth.FileLimit/50)
	tests := []struct {
		name   string
		reply  string
		status Status
	}{
		{"an oversized note with its own [truncated] line", "oversized-notes.md:2001: [truncated]", StatusPass},
		{"a note that does not hold [", "a.md:1: alpha", StatusFail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &Facts{
				Notes: &Notes{Roots: []string{"/base/root"}, Entries: []string{"a.md", "oversized-notes.md"},
					Files: map[string]string{"a.md": "alpha\n", "oversized-notes.md": big}},
				Exchanges: []Exchange{{Step: "[", Reply: toolReply(t, tt.reply)}},
				TimeLimit: "10s",
			}
			v := check11.Judge(f)
			if got := v.Status(); got != tt.status {
				t.Errorf("status %s, want %s: %s", got, tt.status, Render(v))
			}
			if tt.status == StatusPass && !strings.Contains(v.Summary, "check 6's rule") {
				t.Errorf("the summary does not send the oversized note to check 6: %q", v.Summary)
			}
		})
	}
}
