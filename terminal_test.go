package main

import (
	"strings"
	"testing"
)

// The hint names the key that ends input on each system.
func TestWaitingHint(t *testing.T) {
	for goos, key := range map[string]string{
		"linux":   "(press Ctrl-D to stop)",
		"darwin":  "(press Ctrl-D to stop)",
		"windows": "(press Ctrl-Z then Enter to stop)",
	} {
		if got := waitingHint(goos); !strings.Contains(got, key) {
			t.Errorf("waitingHint(%q) = %q; want it to say %q", goos, got, key)
		}
	}
}
