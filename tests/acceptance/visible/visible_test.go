package visible

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, keep, want string
	}{
		{"plain text unchanged", "sign-in screen spun", "", "sign-in screen spun"},
		{"window title", "a\x1b]0;TITLE\x07b", "", `a\x1b]0;TITLE\ab`},
		{"clear screen", "\x1b[2J", "", `\x1b[2J`},
		{"C1 CSI", "x\u009b31m", "", `x\u009b31m`},
		{"right-to-left override", "abc\u202edef", "", `abc\u202edef`},
		{"isolate", "\u2066x\u2069", "", `\u2066x\u2069`},
		{"tab kept when asked", "a\tb\nc", "\t", `a` + "\t" + `b\nc`},
		{"invalid UTF-8", "a\xffb", "", "a\uFFFDb"},
		{"non-character", "a\uFFFFb", "", `a\uffffb`},
		{"letters of any script kept", "λόγος ẞ K", "", "λόγος ẞ K"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Escape(tt.in, tt.keep)); diff != "" {
				t.Errorf("Escape(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestClipAndTruncate(t *testing.T) {
	clips := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"a\n  b\tc", 10, "a b c"},
		{"crème-brûlée", 5, "crème…"},
	}
	for _, tt := range clips {
		if got := Clip(tt.in, tt.n); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
	truncs := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc… [3 more bytes]"},
		{"aé", 2, "a… [2 more bytes]"}, // é is two bytes: never cut inside it
	}
	for _, tt := range truncs {
		if got := Truncate(tt.in, tt.n); got != tt.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
