package checks

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPlantingsRemoveWhatTheyMade: each check's Planting makes its
// fixtures in a folder and Remove takes away exactly those, leaving the
// folder empty; a file a server added inside a planted folder stays and
// Remove says so.
func TestPlantingsRemoveWhatTheyMade(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SKIP: FIFOs and mode-000 files are Unix fixtures")
	}
	for _, c := range All() {
		if c.Planting == nil {
			continue
		}
		t.Run(c.ID, func(t *testing.T) {
			dir := t.TempDir()
			made, err := c.Planting.Plant(dir, "trapmark-1")
			if err != nil {
				t.Fatal(err)
			}
			var rels []string
			for _, p := range made {
				rels = append(rels, p.Rel)
			}
			if len(rels) == 0 {
				t.Errorf("check %s's Planting planted nothing", c.ID)
			}
			if c.Planting.Locked != "" && !slices.Contains(rels, c.Planting.Locked) {
				t.Errorf("locked file %s is not planted", c.Planting.Locked)
			}
			if err := Remove(dir, made); err != nil {
				t.Fatal(err)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("left after Remove: %v", left)
			}
		})
	}
	dir := t.TempDir()
	made, err := check20Traps.Plant(dir, "trapmark-1")
	if err != nil {
		t.Fatal(err)
	}
	added := filepath.Join(dir, "folder.md", "cache.json")
	if err := os.WriteFile(added, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir, made); err == nil {
		t.Errorf("Remove removed a folder holding a file it did not plant")
	}
	if _, err := os.Stat(added); err != nil {
		t.Errorf("the server's file is gone: %v", err)
	}
	if diff := cmp.Diff("a FIFO named like a note", made[0].What); diff != "" {
		t.Errorf("first trap (-want +got):\n%s", diff)
	}
}
