package checks

import "testing"

// TestSameReplyMasksTimes: a time or duration, with a unit or as a bare
// number under a field that names one, is not a difference; any other
// number or text is.
func TestSameReplyMasksTimes(t *testing.T) {
	reply := func(result string) Exchange {
		return Exchange{Reply: `{"jsonrpc":"2.0","id":1,"result":` + result + `}`}
	}
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"bare _meta.executionTime", `{"_meta":{"executionTime":9},"content":[]}`, `{"_meta":{"executionTime":14},"content":[]}`, true},
		{"durationMs and elapsed_ms", `{"structuredContent":{"durationMs":1.5,"elapsed_ms":3},"content":[]}`, `{"structuredContent":{"durationMs":2,"elapsed_ms":40},"content":[]}`, true},
		{"a timestamp in seconds", `{"_meta":{"timestamp":1765000000},"content":[]}`, `{"_meta":{"timestamp":1765000001},"content":[]}`, true},
		{"a duration with its unit", `{"content":[{"type":"text","text":"1 match in 3 ms"}]}`, `{"content":[{"type":"text","text":"1 match in 12 ms"}]}`, true},
		{"a count in _meta", `{"_meta":{"items":3},"content":[]}`, `{"_meta":{"items":4},"content":[]}`, false},
		{"results in another order", `{"content":[{"type":"text","text":"a.md\nb.md"}]}`, `{"content":[{"type":"text","text":"b.md\na.md"}]}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameReply(reply(tt.a), reply(tt.b)); got != tt.same {
				t.Errorf("sameReply = %v, want %v", got, tt.same)
			}
		})
	}
}
