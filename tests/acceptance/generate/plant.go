package generate

import (
	"fmt"
	"os"
	"path/filepath"
)

// Plant writes the set's notes under root, an existing folder.
func (s Set) Plant(root string) error {
	for _, n := range s.Notes {
		if err := write(root, n); err != nil {
			return err
		}
	}
	return nil
}

// Change makes the set's changes to a root Plant wrote.
func (s Set) Change(root string) error {
	if err := write(root, s.Changes.Edit); err != nil {
		return err
	}
	if err := write(root, s.Changes.Add); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(s.Changes.Remove))); err != nil {
		return fmt.Errorf("removing a generated note: %w", err)
	}
	return nil
}

func write(root string, n Note) error {
	path := filepath.Join(root, filepath.FromSlash(n.Rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("planting %s: %w", n.Rel, err)
	}
	mode := os.FileMode(0o644)
	if n.Unreadable {
		mode = 0
	}
	if err := os.WriteFile(path, n.Data, 0o644); err != nil {
		return fmt.Errorf("planting %s: %w", n.Rel, err)
	}
	if err := os.Chmod(path, mode); err != nil {
		return fmt.Errorf("planting %s: %w", n.Rel, err)
	}
	return nil
}
