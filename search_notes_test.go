package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/search"
)

// TestResultMessage pins the one-line message of each kind of result: how
// many passages matched, whether the list was cut, and how much of the
// folder was not searched.
func TestResultMessage(t *testing.T) {
	five := make([]search.Match, 5)
	tests := []struct {
		name string
		res  search.Result
		cov  search.Coverage
		want string
	}{
		{"none", search.Result{Query: "coffee"}, search.Coverage{NotSearched: 2},
			`No notes matched "coffee". 2 files were not searched.`},
		{"one", search.Result{Query: "tea", Matches: five[:1]}, search.Coverage{NotSearched: 1},
			`1 passage matched "tea". 1 file was not searched.`},
		{"several", search.Result{Query: "tea", Matches: five}, search.Coverage{NotSearched: 2},
			`5 passages matched "tea". 2 files were not searched.`},
		{"cut", search.Result{Query: "tea", Matches: make([]search.Match, search.MaxMatches), Truncated: true}, search.Coverage{},
			`Showing the first 10 passages that matched "tea"; more matched.`},
		{"many not searched", search.Result{Query: "tea"}, search.Coverage{NotSearched: search.MaxSkipped + 5},
			`No notes matched "tea". 25 files were not searched.`},
		{"out of time", search.Result{Query: "amber lamp", Matches: five[:1]}, search.Coverage{NotSearched: 3, OutOfTime: true},
			`1 passage matched "amber lamp". 3 files were not searched. The search ran out of time before every note was read.`},
		{"too large", search.Result{Query: "tea"}, search.Coverage{Incomplete: true},
			`No notes matched "tea". The folder is larger than the walk limits (50000 entries, 16 levels deep); some files were not searched.`},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, resultMessage(&tt.res, tt.cov)); diff != "" {
			t.Errorf("%s: message (-want +got):\n%s", tt.name, diff)
		}
	}
}
