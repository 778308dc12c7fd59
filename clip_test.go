package main

import "testing"

func TestClip(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…"},
		{"ééé", 3, "é…"}, // é is two bytes; never cut one in half
	}
	for _, tt := range tests {
		if got := shorten(tt.s, tt.n); got != tt.want {
			t.Errorf("shorten(%q, %d) = %q; want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
