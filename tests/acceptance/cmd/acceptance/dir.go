package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// enterDir makes dir the working folder of the run, so that the server
// command and the record files are read in the learner's project while
// the harness runs from the kit's folder (go run works only inside its
// module). The practice data, named relative to where the command
// started, is made absolute first.
func enterDir(dir string, practice *string) error {
	if dir == "" {
		return nil
	}
	abs, err := filepath.Abs(*practice)
	if err != nil {
		return fmt.Errorf("--practice-data: %w", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("--dir: %s is not a folder", dir)
	}
	if err := os.Chdir(dir); err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	*practice = abs
	return nil
}
