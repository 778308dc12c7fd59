package harness

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
)

// TestFreshFixtures: the process of other tools gets the fixtures
// planted again from the run's seed where they were, without what the
// searches left; what it changes there is recorded for check 7 and goes
// with the copy, and the searched fixtures come back as they were. A
// seed that cannot be read leaves the searched fixtures in place.
func TestFreshFixtures(t *testing.T) {
	pd := filepath.Join("..", "testdata", "practice-data")
	lay, err := buildLayout(pd, newSeed())
	if lay != nil {
		t.Cleanup(func() { lay.remove() })
	}
	if err != nil {
		t.Fatal(err)
	}
	searchedMark := filepath.Join(lay.Root, "left-by-the-searches.md")
	if err := os.WriteFile(searchedMark, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	searched, err := takeSnapshot(lay.Base)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{cfg: Config{PracticeData: pd}, lay: lay}
	var given []string
	restore, err := r.freshFixtures(func(dir string) error { given = append(given, dir); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{lay.Base}, given); diff != "" {
		t.Errorf("folders given to the server (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(searchedMark); !os.IsNotExist(err) {
		t.Errorf("the copy holds what the searches left: %v", err)
	}
	fresh, err := takeSnapshot(lay.Base)
	if err != nil {
		t.Fatal(err)
	}
	// The same files, links and words; only the times differ.
	for p, st := range searched {
		if p == "root/left-by-the-searches.md" || p == "." {
			continue
		}
		f, ok := fresh[p]
		if !ok || f.Kind != st.Kind || f.SHA256 != st.SHA256 || f.Target != st.Target || f.Mode != st.Mode {
			t.Errorf("%s in the copy: %+v, searched %+v", p, f, st)
		}
	}
	if err := os.WriteFile(filepath.Join(lay.Root, "outline-cache.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	back, err := takeSnapshot(lay.Base)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(searched, back); diff != "" {
		t.Errorf("searched fixtures after the process of other tools (-before +after):\n%s", diff)
	}
	if r.otherFiles == nil {
		t.Fatal("no states of the copy for check 7")
	}
	if diff := cmp.Diff([]string{"root/outline-cache.json"}, checks.ChangedFiles(r.otherFiles.Before, r.otherFiles.After)); diff != "" {
		t.Errorf("changed in the copy (-want +got):\n%s", diff)
	}
	for _, gone := range []string{lay.Base + "-searched", lay.Base + "-other-tools"} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("%s left behind: %v", gone, err)
		}
	}

	seed := lay.Seed
	if _, err := r.freshFixtures(func(string) error { return errors.New("refused") }); err == nil {
		t.Errorf("a copy the server could not be given was used")
	}
	if again, err := takeSnapshot(lay.Base); err != nil || !cmp.Equal(searched, again) {
		t.Errorf("a copy that could not be given moved the searched fixtures (%v)", err)
	}
	if _, err := os.Stat(lay.Base + "-searched"); !os.IsNotExist(err) {
		t.Errorf("the searched fixtures' place aside is left: %v", err)
	}
	lay.Seed = "not hex"
	if _, err := r.freshFixtures(func(string) error { return nil }); err == nil {
		t.Errorf("a seed that is not hex made a copy")
	}
	if again, err := takeSnapshot(lay.Base); err != nil || !cmp.Equal(searched, again) {
		t.Errorf("a failed copy moved the searched fixtures (%v)", err)
	}
	lay.Seed = seed
}
