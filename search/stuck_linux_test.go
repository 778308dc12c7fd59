package search

import (
	"context"
	"testing"
	"time"

	"practice-notes/boundary"
	"practice-notes/boundary/fusetest"
)

// A search over a folder where one note's read blocks for ever (a FUSE
// mount that never answers it) is answered by its deadline with what it
// found, and names the notes it did not search in time.
func TestRunAnswersDespiteStuckRead(t *testing.T) {
	if !fusetest.InPrivateMountNamespace(t) {
		return
	}
	fs := fusetest.Mount(t, map[string]string{
		"a.md":     "## N1 · First\n\nthe amber lamp\n",
		"m.md":     "the amber lamp, stuck\n",
		"z.md":     "the amber lamp, last\n",
		"sub/y.md": "the amber lamp, deeper\n",
	}, func(name string) bool { return name == "m.md" })
	root, err := boundary.Open(fs.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	q, err := ParseQuery("amber lamp")
	if err != nil {
		t.Fatal(err)
	}
	for _, deadline := range []time.Duration{300 * time.Millisecond, 600 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		start := time.Now()
		res, cov, err := New(root, Options{}).Run(ctx, q)
		took := time.Since(start)
		cancel()
		if err != nil {
			t.Fatalf("Run with a stuck read: %v after %v", err, took)
		}
		if took > deadline+2*time.Second {
			t.Errorf("Run answered after %v; its deadline was %v", took, deadline)
		}
		// a.md comes before the stuck note and is searched; m.md is being
		// read when time runs out; each note after it was either searched
		// meanwhile on another goroutine or not reached.
		seen := map[string]string{}
		for _, m := range res.Matches {
			seen[m.File] = "matched"
		}
		for _, s := range res.Skipped {
			seen[s.File] = s.Reason
		}
		if seen["a.md"] != "matched" || seen["m.md"] != boundary.ErrNotInTime.Error() {
			t.Errorf("a.md %q, m.md %q; want matched, and %q", seen["a.md"], seen["m.md"], boundary.ErrNotInTime)
		}
		for _, name := range []string{"sub/y.md", "z.md"} {
			if seen[name] != "matched" && seen[name] != errNotReached.Error() {
				t.Errorf("%s: %q; want matched or %q", name, seen[name], errNotReached)
			}
		}
		if !cov.OutOfTime {
			t.Errorf("coverage %+v does not say the search ran out of time", cov)
		}
	}
}
