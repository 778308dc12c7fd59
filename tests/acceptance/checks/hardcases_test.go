package checks

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/truth"
)

// TestWhiteLineReadings judges replies to the hard cases whose paragraph
// holds a line of white space alone (U+2028 or U+0085 twice, a form feed
// on a line of its own, a lone CR twice): the whole paragraph and its part
// that holds the phrase are both right, as the specification does not say
// what ends a paragraph; the other part, a separator rewritten or dropped,
// breaks check 1's rule.
func TestWhiteLineReadings(t *testing.T) {
	notes, _ := truth.HardCases()
	tree := truth.Tree{}
	var text string
	for _, n := range notes {
		tree[n.Rel] = truth.Entry{Kind: truth.Regular, Data: []byte(n.Text)}
		if n.Rel == truth.HardDir+"/white-lines.md" {
			text = n.Text
		}
	}
	if text == "" {
		t.Fatal("no white-lines.md among the hard cases")
	}
	para := func(word string) string {
		for _, p := range strings.Split(text, "\n\n") {
			if strings.Contains(p, word) {
				return p
			}
		}
		t.Fatalf("no paragraph holds %s", word)
		return ""
	}
	tests := []struct {
		query, passage string
		fails          bool
	}{
		{"whitels-mark", para("whitels-mark"), false},
		{"whitels-mark", "Its second part holds whitels-mark.", false},
		{"whitels-mark", "The first part of the whitels paragraph.", true},
		{"whitels-mark", strings.ReplaceAll(para("whitels-mark"), "\u2028", "\n"), true},
		{"whitenel-mark", para("whitenel-mark"), false},
		{"whitenel-mark", "Its second part holds whitenel-mark.", false},
		{"whitenel-mark", strings.ReplaceAll(para("whitenel-mark"), "\u0085", ""), true},
		{"whiteff-mark", para("whiteff-mark"), false},
		{"whiteff-mark", "Its second part holds whiteff-mark.", false},
		{"whiteff-mark", strings.ReplaceAll(para("whiteff-mark"), "\n\f\n", "\n"), true},
		{"whiteff-mark", "The first part of the whiteff paragraph.", true},
		{"whitecr-mark", para("whitecr-mark"), false},
		{"whitecr-mark", "Its second part holds whitecr-mark.", false},
		{"whitecr-mark", strings.ReplaceAll(para("whitecr-mark"), "\r", "\n"), true},
		{"whitecr-mark", "Its second part holds whitecr-mark", true},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%d/%s", i, tt.query), func(t *testing.T) {
			a := truth.Ask(tree, tt.query)
			body, _ := json.Marshal([]map[string]any{{"file": truth.HardDir + "/white-lines.md", "note": nil, "excerpt": tt.passage}})
			reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1,
				"result": map[string]any{"content": []map[string]any{{"type": "text", "text": string(body)}}}})
			f := &Facts{
				Truth:     map[string]*truth.Answer{tt.query: &a},
				Exchanges: []Exchange{{Step: hardStep(tt.query), In: "{}", Out: []string{string(reply)}, Reply: string(reply)}},
			}
			var got []string
			for _, fd := range judgeHardCases(f) {
				if fd.Owner == check1 {
					got = append(got, fd.Msg)
				}
			}
			if diff := cmp.Diff(tt.fails, len(got) > 0); diff != "" {
				t.Errorf("passage %q: failed (-want +got):\n%s\n%s", tt.passage, diff, strings.Join(got, "\n"))
			}
		})
	}
}

// TestCheck10HintFolds: check 10's fix names functions that fold σ and ς
// together, never a lowercasing that leaves them apart.
func TestCheck10HintFolds(t *testing.T) {
	for _, want := range []string{"strings.EqualFold", "unicode.SimpleFold", "str.casefold", "iu flags"} {
		if !strings.Contains(check10.Hint, want) {
			t.Errorf("check 10's hint does not name %s: %q", want, check10.Hint)
		}
	}
	for _, lower := range []string{"ToLower", "toLowerCase", "lower()"} {
		if strings.Contains(check10.Hint, lower) {
			t.Errorf("check 10's hint recommends %s, which leaves σ and ς apart: %q", lower, check10.Hint)
		}
	}
	// What the hint names for Go does what it promises; ToLower does not.
	if !strings.EqualFold("λόγοσ", "ΛΌΓΟΣ") || !strings.EqualFold("λόγος", "ΛΌΓΟΣ") {
		t.Error("strings.EqualFold should fold σ and ς together")
	}
	if lower := strings.ToLower("ΛΌΓΟΣ"); lower != "λόγοσ" || strings.Contains(lower, "ς") {
		t.Errorf("strings.ToLower(ΛΌΓΟΣ) = %q: lowercasing gives σ only, so it misses ς", lower)
	}
}
