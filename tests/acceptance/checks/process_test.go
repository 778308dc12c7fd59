package checks

import "testing"

func TestCheckWords(t *testing.T) {
	for _, tt := range []struct {
		ids  []string
		want string
	}{
		{nil, "no check"},
		{[]string{"8"}, "check 8"},
		{[]string{"4", "5"}, "checks 4 and 5"},
		{[]string{"1", "2", "8"}, "checks 1, 2 and 8"},
	} {
		if got := CheckWords(tt.ids); got != tt.want {
			t.Errorf("CheckWords(%q) = %q, want %q", tt.ids, got, tt.want)
		}
	}
}

// TestProcessOf: a list of checks ends with "and", one check is singular,
// and an empty list names no check instead of reading "check ,".
func TestProcessOf(t *testing.T) {
	for _, tt := range []struct{ ids, want string }{
		{"", "a server process that served no check"},
		{" , ", "a server process that served no check"},
		{"4", "the process of check 4"},
		{"1, 2", "the process of checks 1 and 2"},
		{"1, 2, 3, 8.1", "the process of checks 1, 2, 3 and 8.1"},
	} {
		if got := ProcessOf(tt.ids); got != tt.want {
			t.Errorf("ProcessOf(%q) = %q, want %q", tt.ids, got, tt.want)
		}
	}
}

// TestStdoutRuleNamesTheProcess: the stdout rule's finding names the
// process through ProcessOf and sets the first bad line apart from the
// list of checks.
func TestStdoutRuleNamesTheProcess(t *testing.T) {
	v := ruleStdout.Judge(&Facts{Processes: []Process{
		{Checks: "", BadLines: []string{"{"}, BadCount: 3},
		{Checks: "1, 2, 3", BadLines: []string{"ready"}, BadCount: 1},
	}})
	want := []string{
		"stdout carried 3 non-JSON-RPC line(s) in a server process that served no check; the first: {",
		"stdout carried 1 non-JSON-RPC line(s) in the process of checks 1, 2 and 3; the first: ready",
	}
	if len(v.Findings) != len(want) {
		t.Fatalf("%d findings, want %d", len(v.Findings), len(want))
	}
	for i, f := range v.Findings {
		if f.Msg != want[i] {
			t.Errorf("finding %d: %q, want %q", i, f.Msg, want[i])
		}
	}
}
