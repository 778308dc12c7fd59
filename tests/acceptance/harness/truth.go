package harness

import (
	"encoding/json"
	"fmt"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/truth"
)

// describeRoot records the root as it is now, for the true answers of
// the searches sent until the next change the harness makes to it.
func (r *runner) describeRoot() error {
	t, err := truth.Load(r.lay.Root)
	if err != nil {
		return fmt.Errorf("describing the practice root: %w", err)
	}
	r.tree = t
	return nil
}

// truthFor computes the true answer to every search_notes query the
// exchanges sent, over the root as last described.
func (r *runner) truthFor(exs []checks.Exchange) map[string]*truth.Answer {
	out := map[string]*truth.Answer{}
	k := truth.NewAsker(r.tree)
	for _, ex := range exs {
		q, ok := searchQuery(ex.In)
		if !ok || r.tree == nil {
			continue
		}
		if _, done := out[q]; !done {
			a := k.Ask(q)
			out[q] = &a
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// searchQuery returns the query a tools/call line sent to search_notes.
func searchQuery(line string) (string, bool) {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(line), &msg) != nil || msg.Method != "tools/call" || msg.Params.Name != "search_notes" {
		return "", false
	}
	q, ok := msg.Params.Arguments["query"].(string)
	return q, ok
}
