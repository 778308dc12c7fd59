package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// trap is a file a naive reader trips on. Traps exist only while their own
// check runs, so that a server that hangs on a FIFO fails that check and not
// every other one.
type trap struct {
	rel  string // inside TrapDir
	what string
}

// makeTraps creates the traps of check 20 and returns what was made.
func (l *layout) makeTraps() ([]trap, error) {
	var made []trap
	add := func(rel, what string, create func(p string) error) error {
		p := filepath.Join(l.TrapDir, filepath.FromSlash(rel))
		if err := create(p); err != nil {
			return fmt.Errorf("creating %s: %w", what, err)
		}
		made = append(made, trap{rel: rel, what: what})
		return nil
	}
	steps := []struct {
		rel, what string
		create    func(p string) error
	}{
		{"pipe-note.md", "a FIFO named like a note", func(p string) error { return mkfifo(p) }},
		{"folder.md", "a directory named like a note", func(p string) error {
			if err := os.Mkdir(p, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(p, "inner-note.md"), []byte("# Inside folder.md\n\nThe word "+l.TrapMarker+" sits in a note inside a directory named folder.md.\n"), 0o644)
		}},
		{"dangling-note.md", "a dangling symlink", func(p string) error { return os.Symlink("missing-note.md", p) }},
		{"binary-note.md", "a binary file with NUL bytes and invalid UTF-8", func(p string) error {
			return os.WriteFile(p, []byte("\x00\xff\xfe\x00binary "+l.TrapMarker+" \xc3\x28\x00\x01\x02\n"), 0o644)
		}},
	}
	for _, st := range steps {
		if err := add(st.rel, st.what, st.create); err != nil {
			return made, err
		}
	}
	return made, nil
}

// lockedRel is the mode-000 note of check 22, inside TrapDir.
const lockedRel = "locked-note.md"

// lockedPath is where check 22's mode-000 note is made.
func (l *layout) lockedPath() string { return filepath.Join(l.TrapDir, lockedRel) }

// makeLocked creates the mode-000 note of check 22.
func (l *layout) makeLocked() ([]trap, error) {
	p := l.lockedPath()
	if err := os.WriteFile(p, []byte("# Locked\n\nThe word "+l.TrapMarker+" is in a file no one may read.\n"), 0o644); err != nil {
		return nil, err
	}
	made := []trap{{rel: lockedRel, what: "a file without read permission"}}
	return made, os.Chmod(p, 0)
}

// removeTraps deletes what makeTraps made and restores the directory's
// times, so that check 7 sees only what the server changed.
func (l *layout) removeTraps(made []trap, dirMTime time.Time) error {
	for _, t := range made {
		p := filepath.Join(l.TrapDir, filepath.FromSlash(t.rel))
		if t.rel == "folder.md" {
			if err := os.Remove(filepath.Join(p, "inner-note.md")); err != nil {
				return err
			}
		}
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	return os.Chtimes(l.TrapDir, dirMTime, dirMTime)
}
