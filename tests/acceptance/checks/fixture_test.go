package checks

import (
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// plantEvery plants every check's fixtures in report order on a fresh
// ground in base, drawing words from seed.
func plantEvery(t *testing.T, base string, seed [32]byte) *Ground {
	t.Helper()
	rng := rand.NewChaCha8(seed)
	g := NewGround(base, filepath.Join(base, "root"), func(n int) string {
		b := make([]byte, n)
		_, _ = rng.Read(b)
		return hex.EncodeToString(b)
	})
	if err := os.Mkdir(g.Root, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range All() {
		for _, p := range c.Fixtures {
			if _, err := g.Plant(p); err != nil {
				t.Fatalf("check %s: %v", c.ID, err)
			}
		}
	}
	return g
}

// TestFixturesPlantWhatTheyDescribe: every fixture's facts describe what
// it planted (its Rel, Files and Path exist; its links are links), a
// word another fixture asks for is drawn once and written in each of
// the notes that hold it, and the same seed plants the same facts.
func TestFixturesPlantWhatTheyDescribe(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SKIP: symlink and hard-link fixtures are Unix fixtures")
	}
	seed := [32]byte{1, 2, 3}
	g := plantEvery(t, t.TempDir(), seed)
	facts := g.Facts()
	exists := func(p string) {
		t.Helper()
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("fixture file missing: %v", err)
		}
	}
	for name, f := range facts {
		if f.Rel != "" {
			exists(filepath.Join(g.Root, f.Rel))
		}
		for _, rel := range f.Files {
			exists(filepath.Join(g.Root, rel))
		}
		if f.Path != "" {
			exists(f.Path)
		}
		if len(f.Words) > 0 && f.Label == "" {
			t.Errorf("%s: words without a label", name)
		}
		// A note's Text is what its file holds, inside the root or out
		// (the leak rule reads a secret note's); an oversized note's file
		// goes on past it.
		if p := f.Path; f.Text != "" {
			if p == "" {
				p = filepath.Join(g.Root, f.Rel)
			}
			if b, err := os.ReadFile(p); err != nil || !strings.HasPrefix(string(b), f.Text) {
				t.Errorf("%s: %s does not start with its Text (%v):\n%q", name, p, err, f.Text)
			}
		}
		if len(f.Words) > 0 && f.Text == "" {
			t.Errorf("%s: secret words without the note's text", name)
		}
	}
	for _, ln := range g.Links() {
		st, err := os.Lstat(filepath.Join(g.Root, ln.Rel))
		switch {
		case err != nil:
			t.Errorf("link %s: %v", ln.Rel, err)
		case ln.Hard != (st.Mode()&os.ModeSymlink == 0):
			t.Errorf("link %s: mode %v, hard %v", ln.Rel, st.Mode(), ln.Hard)
		}
	}
	spread := facts[spreadPhrase.Name].Marker
	for _, rel := range []string{facts[validNote.Name].Rel, facts[boundPhrase.Name].Files[0], facts[unicodeNote.Name].Rel, facts[injectNote.Name].Rel} {
		b, err := os.ReadFile(filepath.Join(g.Root, rel))
		if err != nil || !strings.Contains(string(b), "The word "+spread+" is in several notes.") {
			t.Errorf("%s does not hold the spread phrase %s (%v)", rel, spread, err)
		}
	}
	again := plantEvery(t, t.TempDir(), seed)
	want := map[string]Fixture{}
	for name, f := range again.Facts() {
		f.Path = strings.Replace(f.Path, again.Base, g.Base, 1)
		want[name] = f
	}
	if diff := cmp.Diff(want, facts); diff != "" {
		t.Errorf("the same seed planted other facts (-again +first):\n%s", diff)
	}
}
