package harness

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStringArgs: every string and string-array property of a declared
// schema is found, whatever its name, so that search_notes's own
// arguments besides query are probed.
func TestStringArgs(t *testing.T) {
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"query":  map[string]any{"type": "string"},
			"folder": map[string]any{"type": "string"},
			"tags":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"limit":  map[string]any{"type": "integer"},
			"scope":  map[string]any{"type": []any{"string", "null"}},
		},
	}
	if diff := cmp.Diff([]string{"folder", "query", "scope", "tags"}, stringArgs(schema)); diff != "" {
		t.Errorf("stringArgs (-want +got):\n%s", diff)
	}
}
