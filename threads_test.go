package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestThreadFit: a search over a folder of a few notes leaves the server
// on one P; one over more than fewNotes gives it the runtime's default
// again, and searches are answered alike either way.
func TestThreadFit(t *testing.T) {
	// TODO(threads): searches no longer report how many notes they listed,
	// so nothing fits GOMAXPROCS after a search; tuning is to be decided
	// once at start.
	t.Skip("TODO(threads): GOMAXPROCS is no longer fitted after each search")
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		t.Skip("GOMAXPROCS is set in the environment, and the server then leaves it alone")
	}
	def := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.SetDefaultGOMAXPROCS() })
	dir := t.TempDir()
	write := func(i int) {
		name := filepath.Join(dir, fmt.Sprintf("note-%03d.md", i))
		if err := os.WriteFile(name, fmt.Appendf(nil, "## N%d · Note\n\nPlanted phrase %d.\n", i, i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 2 {
		write(i)
	}
	cs := tunedSession(t, dir, newThreadFit(), nil)

	for _, tc := range []struct {
		notes, procs int
	}{
		{2, 1},
		{fewNotes, 1},
		{fewNotes + 1, def},
		{fewNotes + 1, def},
		{2, 1}, // the folder shrinks again
	} {
		entries, _ := os.ReadDir(dir)
		for i := len(entries); i < tc.notes; i++ {
			write(i)
		}
		for i := tc.notes; i < len(entries); i++ {
			if err := os.Remove(filepath.Join(dir, fmt.Sprintf("note-%03d.md", i))); err != nil {
				t.Fatal(err)
			}
		}
		res := call(t, cs, map[string]any{"query": "planted phrase"})
		var got struct{ Matches []any }
		if err := json.Unmarshal([]byte(resultText(res)), &got); err != nil || res.IsError {
			t.Fatalf("%d notes: %v %+v", tc.notes, err, res)
		}
		if want := min(tc.notes, 10); len(got.Matches) != want {
			t.Errorf("%d notes: %d passages, want %d", tc.notes, len(got.Matches), want)
		}
		if n := runtime.GOMAXPROCS(0); n != tc.procs {
			t.Errorf("after a search over %d notes, GOMAXPROCS is %d; want %d", tc.notes, n, tc.procs)
		}
	}
}

// TestThreadFitLeavesOperatorsChoice: with GOMAXPROCS set in the
// environment, the server does not tune it.
func TestThreadFitLeavesOperatorsChoice(t *testing.T) {
	t.Setenv("GOMAXPROCS", "3")
	if fit := newThreadFit(); fit != nil {
		t.Errorf("newThreadFit() with GOMAXPROCS set = %+v; want nil", fit)
	}
	var none *threadFit
	before := runtime.GOMAXPROCS(0)
	none.fit(1)
	if n := runtime.GOMAXPROCS(0); n != before {
		t.Errorf("a nil threadFit changed GOMAXPROCS from %d to %d", before, n)
	}
}
