package harness

import (
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
)

// TestTranscriptLayoutRebuildsFixtures: the layout a transcript records
// rebuilds the fixtures its facts name, random words and all, in another
// temp folder; another seed makes other words.
func TestTranscriptLayoutRebuildsFixtures(t *testing.T) {
	pd := filepath.Join("..", "testdata", "practice-data")
	build := func(seed [32]byte) *layout {
		t.Helper()
		lay, err := buildLayout(pd, seed)
		if lay != nil {
			t.Cleanup(func() { lay.remove() })
		}
		if err != nil {
			t.Fatal(err)
		}
		return lay
	}
	lay := build(newSeed())
	r := &runner{cfg: Config{PracticeData: pd, Server: "server {root}"}, lay: lay, rep: &Report{}}
	c, _ := checks.ByID("2")
	r.transcribe([]*checks.Check{c}, &checks.Facts{Fixtures: lay.fixtures(), Notes: lay.notes()})
	data, err := r.rep.transcripts[0].encode()
	if err != nil {
		t.Fatal(err)
	}
	_, got, _, err := checks.DecodeTranscript(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Layout == nil {
		t.Fatal("the transcript records no layout")
	}
	if got.Layout.TempFolder != lay.Base || got.Layout.PracticeData != pd {
		t.Errorf("layout %+v, want temp folder %s and practice data %s", got.Layout, lay.Base, pd)
	}
	var seed [32]byte
	if b, err := hex.DecodeString(got.Layout.Seed); err != nil || len(b) != len(seed) {
		t.Fatalf("seed %q: %v", got.Layout.Seed, err)
	} else {
		copy(seed[:], b)
	}
	rebuilt := func(seed [32]byte) map[string]checks.Fixture {
		again := build(seed)
		out := map[string]checks.Fixture{}
		for name, f := range again.fixtures() {
			f.Path = strings.Replace(f.Path, again.Base, got.Layout.TempFolder, 1)
			out[name] = f
		}
		return out
	}
	if diff := cmp.Diff(got.Fixtures, rebuilt(seed)); diff != "" {
		t.Errorf("fixtures rebuilt from the layout (-recorded +rebuilt):\n%s", diff)
	}
	for name, f := range rebuilt(seed) {
		if len(f.Words) > 0 && f.Text == "" {
			t.Errorf("%s: a secret note's facts without its text, which the leak rule reads", name)
		}
	}
	other := rebuilt(newSeed())
	for name, f := range got.Fixtures {
		if f.Marker != "" && other[name].Marker == f.Marker {
			t.Errorf("another seed made the same word %q for %s", f.Marker, name)
		}
	}
}

// TestLayoutFolderWidth: the temp folder's name has one width, run after
// run, so texts cut to a fixed width that quote it are cut alike.
func TestLayoutFolderWidth(t *testing.T) {
	want := len("practice-notes-acceptance-") + 10
	for range 20 {
		lay, err := buildLayout(filepath.Join("..", "testdata", "practice-data"), newSeed())
		if lay != nil {
			t.Cleanup(func() { lay.remove() })
		}
		if err != nil {
			t.Fatal(err)
		}
		if name := filepath.Base(lay.Base); len(name) != want {
			t.Errorf("temp folder %s: %d characters, want %d", name, len(name), want)
		}
	}
}
