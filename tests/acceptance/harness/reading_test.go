package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// transcript is one recorded tool reply in testdata/replies: the query
// sent, the result that came back, and what its reading must be.
type transcript struct {
	About  string          `json:"about"`
	Query  string          `json:"query"`
	Result json.RawMessage `json:"result"`
	Want   struct {
		Results []string `json:"results"`
		Skipped []string `json:"skipped"`
		NoteIDs []string `json:"noteIDs"`
		NoMatch bool     `json:"noMatch"`
		Items   int      `json:"items"`
		Quoted  int      `json:"quoted"`
		// N2 is "" when check 1 must pass on the reply, else a part of
		// its problem.
		N2 string `json:"n2"`
	} `json:"want"`
}

// TestReadingTranscripts reads every recorded reply without starting a
// server and compares the reading, and check 1's judgement, with what
// the transcript says.
func TestReadingTranscripts(t *testing.T) {
	lay, err := buildLayout(filepath.Join("..", "testdata", "practice-data"), newSeed())
	if lay != nil {
		defer lay.remove()
	}
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "replies", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var tr transcript
			if err := json.Unmarshal(b, &tr); err != nil {
				t.Fatal(err)
			}
			var res mcp.CallToolResult
			if err := json.Unmarshal(tr.Result, &res); err != nil {
				t.Fatal(err)
			}
			rd := readResult(&res, tr.Query, lay)
			type got struct {
				Results, Skipped, NoteIDs []string
				NoMatch                   bool
				Items, Quoted             int
			}
			want := got{tr.Want.Results, tr.Want.Skipped, tr.Want.NoteIDs, tr.Want.NoMatch, tr.Want.Items, tr.Want.Quoted}
			have := got{rd.Results, rd.Skipped, rd.NoteIDs, rd.NoMatch, len(rd.Items), len(rd.Quoted)}
			if diff := cmp.Diff(want, have, cmpEmpty); diff != "" {
				t.Errorf("%s: reading (-want +got):\n%s", tr.About, diff)
			}
			v := lay.notes().JudgeN2(rd)
			switch {
			case tr.Want.N2 == "" && !v.OK:
				t.Errorf("%s: check 1 refused the reply: %s", tr.About, v.Problem)
			case tr.Want.N2 != "" && v.OK:
				t.Errorf("%s: check 1 passed the reply, want a problem with %q", tr.About, tr.Want.N2)
			case tr.Want.N2 != "" && !strings.Contains(v.Problem, tr.Want.N2):
				t.Errorf("%s: check 1's problem is %q, want it to say %q", tr.About, v.Problem, tr.Want.N2)
			}
		})
	}
}

// cmpEmpty treats a nil and an empty list alike.
var cmpEmpty = cmp.Transformer("empty", func(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
})
