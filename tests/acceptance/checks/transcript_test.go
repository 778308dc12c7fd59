package checks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// transcripts reads every recorded transcript under testdata.
func transcripts(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "transcripts", "*", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no transcripts under testdata/transcripts")
	}
	byCheck := map[string][]string{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		id, _, _, err := DecodeTranscript(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		byCheck[id] = append(byCheck[id], file)
	}
	return byCheck
}

// judgeOf returns the judge a transcript's id names: a check's, or a
// run-wide rule's ("rule NAME").
func judgeOf(id string) (func(*Facts) Verdict, bool) {
	if name, ok := strings.CutPrefix(id, "rule "); ok {
		r, ok := ruleNamed(name)
		if !ok {
			return nil, false
		}
		return r.Judge, true
	}
	c, ok := ByID(id)
	if !ok {
		return nil, false
	}
	return c.Judge, true
}

// TestTranscripts replays every transcript: the check's judge, run on the
// recorded facts, gives the verdict the transcript wants.
func TestTranscripts(t *testing.T) {
	for id, files := range transcripts(t) {
		judge, ok := judgeOf(id)
		if !ok {
			t.Errorf("transcripts of unknown check or rule %s: %v", id, files)
			continue
		}
		for _, file := range files {
			t.Run(file, func(t *testing.T) {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				_, facts, want, err := DecodeTranscript(data)
				if err != nil {
					t.Fatal(err)
				}
				if judge == nil {
					t.Fatalf("check %s has a transcript but no judge", id)
				}
				if diff := cmp.Diff(want, Render(judge(facts))); diff != "" {
					// The verdict quotes a server: show its control
					// characters as escapes, and not without bound.
					t.Errorf("verdict (-want +got):\n%s", clipLines(escapeControls(diff), 4000))
				}
			})
		}
	}
}

// TestTranscriptRoundTrip: what EncodeTranscript writes, DecodeTranscript
// reads back unchanged.
func TestTranscriptRoundTrip(t *testing.T) {
	facts := &Facts{
		Layout: &Layout{Seed: "00ff", PracticeData: "practice-data", TempFolder: "/tmp/run"},
		Stderr: "listening\n",
		Exchanges: []Exchange{
			{Step: stepInit, In: initLine(`"init-1"`), Out: []string{`{"jsonrpc":"2.0","method":"notifications/message"}`, `{"jsonrpc":"2.0","id":"init-1","result":{"protocolVersion":"2024-11-05","capabilities":{"tools":{}}}}`}, Millis: 3},
			{Step: stepNotJSON, In: "this line is not JSON {"},
			{Step: stepPingAfter, In: `{"jsonrpc":"2.0","id":5,"method":"ping"}`, Error: "no answer within 10s", TimedOut: true, Millis: 10000},
		},
	}
	facts.Exchanges[0].Reply = facts.Exchanges[0].Out[1]
	// The report's JSON of an exchange leaves its lines out; facts.json
	// keeps them for the result a check hands on.
	signIn := facts.Exchanges[0]
	facts.SignIn = &signIn
	data, err := EncodeTranscript(check8_5, "server: test", facts)
	if err != nil {
		t.Fatal(err)
	}
	id, got, want, err := DecodeTranscript(data)
	if err != nil {
		t.Fatal(err)
	}
	if id != "8.5" {
		t.Errorf("id %q, want 8.5", id)
	}
	if diff := cmp.Diff(facts, got); diff != "" {
		t.Errorf("facts (-wrote +read):\n%s", diff)
	}
	if diff := cmp.Diff(Render(check8_5.Judge(facts)), want); diff != "" {
		t.Errorf("want (-judged +read):\n%s", diff)
	}
}

// clipLines bounds text for a test log, keeping its line breaks.
func clipLines(s string, n int) string {
	s = strings.ReplaceAll(s, `\n`, "\n")
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("\n… %d more bytes", len(s)-n)
}

// TestCatalogBothWays: every check has a judge, and it and every
// run-wide rule have a transcript the judge passes and one it fails or
// warns on.
func TestCatalogBothWays(t *testing.T) {
	byCheck := transcripts(t)
	for _, r := range rules {
		seen := map[Status]bool{}
		for _, file := range byCheck["rule "+r.Name] {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, facts, _, err := DecodeTranscript(data)
			if err != nil {
				t.Fatal(err)
			}
			seen[r.Judge(facts).Status()] = true
		}
		if !seen[StatusPass] {
			t.Errorf("rule %s: no transcript that passes it", r.Name)
		}
		if !seen[StatusFail] && !seen[StatusWarn] {
			t.Errorf("rule %s: no transcript that fails or warns it", r.Name)
		}
	}
	for _, c := range All() {
		if c.Judge == nil {
			t.Errorf("check %s has no judge", c.ID)
			continue
		}
		seen := map[Status]bool{}
		for _, file := range byCheck[c.ID] {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, facts, _, err := DecodeTranscript(data)
			if err != nil {
				t.Fatal(err)
			}
			seen[c.Judge(facts).Status()] = true
		}
		if !seen[StatusPass] {
			t.Errorf("check %s: no transcript that passes it", c.ID)
		}
		if !seen[StatusFail] && !seen[StatusWarn] {
			t.Errorf("check %s: no transcript that fails or warns it", c.ID)
		}
	}
}

// TestTranscriptHostileText: what a server wrote never acts on the
// terminal that shows a verdict, and never ends a transcript section.
func TestTranscriptHostileText(t *testing.T) {
	v := Verdict{Findings: []Finding{{Msg: "\x1b[2J\x1b]0;title\a\r\n-- x --\u0085\u202e", Detail: []string{"\x00\xff"}}}}
	got := Render(v)
	want := "status: fail\nfail: \\u001b[2J\\u001b]0;title\\u0007\\u000d\\n-- x --\\u0085\u202e\n  detail: \\u0000\\ufffd\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Render (-want +got):\n%s", diff)
	}
	for _, line := range []string{"-- x --", "-- 1 initialize.out --  "} {
		f := &Facts{Exchanges: []Exchange{{Step: "s", In: "{}", Out: []string{line}, Reply: line}}}
		if _, err := EncodeTranscript(check8_5, "server: test", f); err == nil {
			t.Errorf("a reply line %q was written into a transcript, where it would end a section", line)
		}
	}
}
