package checks

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/truth"
)

// toolReply is a tools/call reply line holding one text block.
func toolReply(t *testing.T, text string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{
		"content": []any{map[string]any{"type": "text", "text": text}}}})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCheck4ArgCalls: check 4 sends its outside paths through every
// other declared argument (an array where the schema asks for one), and
// fails a call that got no answer and a search whose true answer is
// empty that presents a note of the root; a refusal passes.
func TestCheck4ArgCalls(t *testing.T) {
	f := &Facts{
		Fixtures: map[string]Fixture{
			outsideNote.Name:  {Marker: "outsidemark-1", Path: "/base/outside.md"},
			absoluteNote.Name: {Marker: "absolutemark-2", Path: "/base/elsewhere/absolute-secret.md"},
		},
		Notes:     &Notes{Roots: []string{"/base/root"}, Entries: []string{"a.md"}},
		Truth:     map[string]*truth.Answer{"outsidemark-1": {Query: "outsidemark-1"}, "absolutemark-2": {Query: "absolutemark-2"}},
		ToolArgs:  []ToolArg{{Tool: "search_notes", Arg: "folder"}, {Tool: "read_note", Arg: "tags", Array: true}},
		TimeLimit: "10s",
	}
	calls := check4ArgCalls(f, f.ToolArgs)
	if len(calls) != 10 {
		t.Fatalf("%d calls, want 5 per argument", len(calls))
	}
	if diff := cmp.Diff(map[string]any{"folder": "..", "query": "outsidemark-1"}, calls[0].args()); diff != "" {
		t.Errorf("first search_notes call (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"folder": "/base/elsewhere", "query": "absolutemark-2"}, calls[3].args()); diff != "" {
		t.Errorf("search_notes call with the outside folder (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"tags": []string{"../outside.md"}}, calls[5].args()); diff != "" {
		t.Errorf("array argument (-want +got):\n%s", diff)
	}

	refused := toolReply(t, "folder must be a sub-folder of the vault")
	refused = refused[:len(refused)-2] + `,"isError":true}}`
	tests := []struct {
		name  string
		reply map[int]Exchange // by call index; the rest are refused
		want  []string
	}{
		{"every call refused", nil, nil},
		{"a root note presented for the outside phrase", map[int]Exchange{
			0: {Reply: toolReply(t, "a.md: the outside phrase is here")},
		}, []string{`search_notes with folder=".." presented a.md for "outsidemark-1", which no note of the root holds: the argument took the search somewhere else`}},
		{"an outside note is the leak rule's", map[int]Exchange{
			0: {Reply: toolReply(t, "../outside.md: outsidemark-1")},
		}, nil},
		{"no answer in time", map[int]Exchange{
			7: {Error: "no answer within 10s", TimedOut: true},
		}, []string{`read_note tags="/base/elsewhere/absolute-secret.md" got no answer within 10s`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts := *f
			facts.Exchanges = nil
			for i, c := range calls {
				ex, ok := tt.reply[i]
				if !ok {
					ex = Exchange{Reply: refused}
				}
				ex.Step = c.step
				if ex.Reply != "" {
					ex.Out = []string{ex.Reply}
				}
				facts.Exchanges = append(facts.Exchanges, ex)
			}
			var v Verdict
			sum := v.judgeArgCalls(&facts, calls)
			var got []string
			for _, fd := range v.Findings {
				got = append(got, fd.Msg)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if want := "10 calls with the outside paths and phrases in the other declared argument(s) search_notes folder, read_note tags"; sum != want {
				t.Errorf("summary %q, want %q", sum, want)
			}
		})
	}
}
