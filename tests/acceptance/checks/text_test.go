package checks

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindNoteParagraphs(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    []Paragraph
		wantErr string
	}{
		{
			name:    "blank line after heading",
			content: "# T\n\n## N1 · A\n\nsign-in elsewhere\n\n## N2 · B\n\nFirst line\nthe Sign-In step\n\nOther para\n## N3 · C\n\nsign-in again\n",
			want:    []Paragraph{{Text: "First line\nthe Sign-In step", StartLine: 9, EndLine: 10}},
		},
		{
			name:    "no blank line after heading gives two readings",
			content: "## N2 · B\nthe sign-in step\n",
			want: []Paragraph{
				{Text: "the sign-in step", StartLine: 2, EndLine: 2},
				{Text: "## N2 · B\nthe sign-in step", StartLine: 1, EndLine: 2},
			},
		},
		{
			name:    "CRLF line endings keep inner CR bytes",
			content: "## N2 · B\r\n\r\nline one\r\nsign-in two\r\n\r\n",
			want:    []Paragraph{{Text: "line one\r\nsign-in two", StartLine: 3, EndLine: 4}},
		},
		{
			name:    "N20 is not N2",
			content: "## N20 · X\n\nsign-in\n",
			wantErr: "no heading for note N2",
		},
		{
			name:    "section without the phrase",
			content: "## N2 · X\n\nnothing here\n\n## N3\n\nsign-in\n",
			wantErr: "no paragraph containing",
		},
		{
			name:    "deeper heading stays in the section",
			content: "## N2 · X\n\nintro\n\n### detail\n\nthe sign-in detail\n\n## N3\n",
			want: []Paragraph{
				{Text: "the sign-in detail", StartLine: 7, EndLine: 7},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FindNoteParagraphs(tt.content, "N2", "sign-in")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLongestVerbatimRun(t *testing.T) {
	para := "After the reset, the sign-in form sent the user back to the login page."
	tests := []struct {
		texts []string
		want  int
	}{
		{[]string{para}, 14},
		{[]string{"… the sign-in form sent the user back …"}, 7},
		{[]string{"sign-in"}, 1},
		{[]string{"the login page"}, 0}, // no run through sign-in
		{[]string{"the sign-in   form"}, 2},
	}
	for _, tt := range tests {
		if got := longestVerbatimRun(para, "sign-in", tt.texts); got != tt.want {
			t.Errorf("longestVerbatimRun(%q) = %d, want %d", tt.texts, got, tt.want)
		}
	}
}

// TestStatesNoMatch pins which sentences say that nothing matched.
func TestStatesNoMatch(t *testing.T) {
	for line, want := range map[string]bool{
		`No notes matched "x".`:                          true,
		"No matches found.":                              true,
		"0 results for x":                                true,
		"Nothing found for that phrase.":                 true,
		"The phrase did not match any note.":             true,
		"matches: 0":                                     true,
		"No matching passages for \"x\".":                true,
		"5 files were not searched.":                     false,
		"Searched the notes. 5 files were not searched.": false,
		"No notes were skipped.":                         false,
		"Found 2 passages.":                              false,
		"":                                               false,
	} {
		if got := statesNoMatch(line); got != want {
			t.Errorf("statesNoMatch(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestPresentsAsFound(t *testing.T) {
	const q = "absentphrase-0123"
	tests := []struct {
		line string
		want bool
	}{
		{`  "query": "absentphrase-0123",`, false},
		{`{"query":"absentphrase-0123","matches":[],"message":"No notes matched."}`, false},
		{`No notes matched "absentphrase-0123".`, false},
		{`Results for absentphrase-0123:`, false},
		{`query=absentphrase-0123`, false},
		{`The notes say absentphrase-0123 was reviewed in the retrospective.`, true},
		{`nothing here`, false},
	}
	for _, tt := range tests {
		if got := presentsAsFound(tt.line, q); got != tt.want {
			t.Errorf("presentsAsFound(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
