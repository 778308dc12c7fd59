package checks

import (
	"fmt"
	"os"
	"path/filepath"
)

// A Planting is fixtures a check plants around its own process only, in
// the root's traps folder, so that a server that hangs on one fails that
// check and not every other. The harness plants them before the process
// starts and removes them, and nothing else, after it ends.
type Planting struct {
	// In is the fixture, planted for the whole run, whose folder (Rel)
	// the planting is made in and whose Marker it writes.
	In *Plant
	// Plant makes the fixtures in dir; marker is In's word. It returns
	// what it made, even on error.
	Plant func(dir, marker string) ([]Planted, error)
	// Locked names, inside dir, the file whose point is that no one may
	// read it: the sandbox keeps it so, and where the server could read
	// it anyway the check is skipped. "" for none.
	Locked string
}

// Planted is one fixture a Planting made.
type Planted struct {
	Rel  string // inside the traps' folder
	What string // as the report names it
	// Inside lists the files made inside a planted folder, removed first.
	Inside []string
}

// Remove deletes what was planted in dir, and only that: a file the
// server added inside a planted folder keeps it from going, and check 7
// sees it.
func Remove(dir string, made []Planted) error {
	for _, p := range made {
		at := filepath.Join(dir, filepath.FromSlash(p.Rel))
		for _, in := range p.Inside {
			if err := os.Remove(filepath.Join(at, in)); err != nil {
				return err
			}
		}
		if err := os.Remove(at); err != nil {
			return err
		}
	}
	return nil
}

// plantAll makes each planted fixture in turn, stopping at the first
// that cannot be made.
func plantAll(dir string, list []plantStep) ([]Planted, error) {
	var made []Planted
	for _, st := range list {
		if err := st.create(filepath.Join(dir, filepath.FromSlash(st.Rel))); err != nil {
			return made, fmt.Errorf("creating %s: %w", st.What, err)
		}
		made = append(made, st.Planted)
	}
	return made, nil
}

// plantStep is one fixture of a Planting and how it is made.
type plantStep struct {
	Planted
	create func(path string) error
}
