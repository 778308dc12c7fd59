package checks

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/diagnose"
)

func TestJudgeOversized(t *testing.T) {
	const big, huge, next = "line of 100 KiB", "line of 2 MiB", "next"
	ok := func(step string) Exchange {
		return Exchange{Step: step, Reply: `{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[]}}`}
	}
	lost := func(step string) Exchange { return Exchange{Step: step, Error: `calling "tools/call": EOF`} }
	tests := []struct {
		name      string
		exchanges []Exchange
		want      []string // steps charged
	}{
		{"every line answered and the next call too", []Exchange{ok(big), ok(huge), ok(next)}, nil},
		{"a JSON-RPC error for a line over the server's limit", []Exchange{ok(big),
			{Step: huge, Error: "calling \"tools/call\": line too long", Out: []string{`{"jsonrpc":"2.0","id":31,"error":{"code":-32600,"message":"line too long"}}`}}, ok(next)}, nil},
		{"the server ends on the first long line", []Exchange{lost(big), lost(huge), lost(next)}, []string{big}},
		{"the server ends on the longest line", []Exchange{ok(big), lost(huge), lost(next)}, []string{huge}},
		{"answered, then the next call is lost", []Exchange{ok(big), ok(huge), lost(next)}, []string{next}},
		{"never sent: the process had stopped before", []Exchange{{Step: big, NotSent: true}}, nil},
		{"the phase ended before the lines", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &Generated{Seed: 7, Oversized: []string{big, huge}, AfterOversized: next, Exchanges: tt.exchanges}
			var got []string
			for _, f := range judgeOversized(g) {
				got = append(got, f.Step)
				if f.Owner == nil || f.Owner.ID != "6" || f.Warn || !strings.Contains(f.Msg, string(diagnose.LineLimit)) {
					t.Errorf("finding %+v: want a failure of check 6 naming %q", f, diagnose.LineLimit)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("charged steps (-want +got):\n%s", diff)
			}
		})
	}
}
