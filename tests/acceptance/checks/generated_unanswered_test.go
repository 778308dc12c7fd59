package checks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJudgeUnanswered: the first search of the generated phase that got
// no answer fails check 1, with its query and how many searches were not
// sent after it; a JSON-RPC error is an answer, an oversized line is
// judgeOversized's, and a server that ended between two answered
// searches is named for the searches it left.
func TestJudgeUnanswered(t *testing.T) {
	g := func(unsent int, exs ...Exchange) *Generated {
		return &Generated{Seed: 5, Unsent: unsent, Exchanges: exs, Oversized: []string{"generated oversized: 100 KiB"},
			Queries: map[string]string{"generated 1: a": "alpha", "generated 2: b": "beta", "generated oversized: 100 KiB": "xxxx"}}
	}
	answered := Exchange{Step: "generated 1: a", Reply: `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`}
	hung := Exchange{Step: "generated 2: b", Error: "no answer within 10s (context deadline exceeded)", TimedOut: true}
	tests := []struct {
		name string
		g    *Generated
		want []string
	}{
		{"every search answered", g(0, answered), nil},
		{"a search that timed out", g(26, answered, hung), []string{
			`1 generated case (seed 5), query "beta": got no answer: no answer within 10s (context deadline exceeded)`,
			"seed: 5 (replay: --seed 5)", `query: "beta"`, "no answer: no answer within 10s (context deadline exceeded)",
			"not sent: the 26 searches of the phase after it"}},
		{"a JSON-RPC error", g(0, answered, Exchange{Step: "generated 2: b", Error: "invalid params", Out: []string{`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}}`}}), nil},
		{"an oversized line left unanswered", g(0, answered, Exchange{Step: "generated oversized: 100 KiB", Error: "connection closed"}), nil},
		{"ended between two answered searches", g(3, answered), []string{
			"1 generated phase (seed 5): the server ended after 1 searches; 3 were not sent", "seed: 5 (replay: --seed 5)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range judgeUnanswered(tt.g) {
				got = append(append(got, f.Owner.ID+" "+f.Msg), f.Detail...)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
