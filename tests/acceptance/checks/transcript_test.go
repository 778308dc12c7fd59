package checks

import (
	"os"
	"path/filepath"
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

// TestTranscripts replays every transcript: the check's judge, run on the
// recorded facts, gives the verdict the transcript wants.
func TestTranscripts(t *testing.T) {
	for id, files := range transcripts(t) {
		c, ok := ByID(id)
		if !ok {
			t.Errorf("transcripts of unknown check %s: %v", id, files)
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
				if c.Judge == nil {
					t.Fatalf("check %s has a transcript but no judge", id)
				}
				if diff := cmp.Diff(want, Render(c.Judge(facts))); diff != "" {
					t.Errorf("verdict (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestTranscriptRoundTrip: what EncodeTranscript writes, DecodeTranscript
// reads back unchanged.
func TestTranscriptRoundTrip(t *testing.T) {
	facts := &Facts{
		Stderr: "listening\n",
		Exchanges: []Exchange{
			{Step: stepInit, In: initLine(`"init-1"`), Out: []string{`{"jsonrpc":"2.0","method":"notifications/message"}`, `{"jsonrpc":"2.0","id":"init-1","result":{"protocolVersion":"2024-11-05","capabilities":{"tools":{}}}}`}, Millis: 3},
			{Step: stepNotJSON, In: "this line is not JSON {"},
			{Step: stepPingAfter, In: `{"jsonrpc":"2.0","id":5,"method":"ping"}`, Error: "no answer within 10s", TimedOut: true, Millis: 10000},
		},
	}
	facts.Exchanges[0].Reply = facts.Exchanges[0].Out[1]
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

// judgedInHarness lists the checks whose judge still runs inside the
// harness, in the code that sends their requests; they have no
// transcripts yet. A check leaves this list when it gets a judge here.
var judgedInHarness = map[string]bool{}

// TestCatalogBothWays: every check with a judge has a transcript its
// judge passes and one it fails or warns on; every other check is named
// in judgedInHarness.
func TestCatalogBothWays(t *testing.T) {
	byCheck := transcripts(t)
	for _, c := range All() {
		if c.Judge == nil {
			if !judgedInHarness[c.ID] {
				t.Errorf("check %s has no judge and is not listed as judged in the harness", c.ID)
			}
			continue
		}
		if judgedInHarness[c.ID] {
			t.Errorf("check %s has a judge: take it off judgedInHarness", c.ID)
		}
		seen := map[string]bool{}
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
