package checks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck22ComparesWithCheck1: check 22 holds sign-in to what the
// server found in check 1, without the unreadable file. On the facts of
// a correct server's run: a server that never finds sign-in passes 22
// (check 1 fails it); one that finds it only without the unreadable file
// fails 22; with no check 1 answer, sign-in is not compared.
func TestCheck22ComparesWithCheck1(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "transcripts", "pyquote-reference", "22.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	_, recorded, _, err := DecodeTranscript(data)
	if err != nil {
		t.Fatal(err)
	}
	if recorded.SignIn == nil {
		t.Fatal("the transcript holds no check 1 search for sign-in")
	}
	noMatch := func(ex Exchange) Exchange {
		ex.Reply = toolReply(t, "No matches found.")
		return ex
	}
	tests := []struct {
		name         string
		check1, here func(Exchange) Exchange // rewrite check 1's and check 22's sign-in reply
		noCheck1     bool
		status       Status
		words        string
	}{
		{"found in both", nil, nil, false, StatusPass, "no absolute path"},
		{"never found, by check 1 either", noMatch, noMatch, false, StatusPass, "no absolute path"},
		{"found only without the unreadable file", nil, noMatch, false, StatusFail, "it presented in check 1"},
		{"check 1 got no answer", nil, noMatch, true, StatusPass, "not compared"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := *recorded
			ref := *recorded.SignIn
			if tt.check1 != nil {
				ref = tt.check1(ref)
			}
			f.SignIn = &ref
			if tt.noCheck1 {
				f.SignIn = nil
			}
			f.Exchanges = append([]Exchange(nil), recorded.Exchanges...)
			for i, ex := range f.Exchanges {
				if ex.Step == SignIn && tt.here != nil {
					f.Exchanges[i] = tt.here(ex)
				}
			}
			got := Render(check22.Judge(&f))
			if v := check22.Judge(&f); v.Status() != tt.status || !strings.Contains(got, tt.words) {
				t.Errorf("want %s with %q, got:\n%s", tt.status, tt.words, got)
			}
		})
	}
}
