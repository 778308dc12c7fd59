package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"practice-notes/tests/acceptance/harness"
	"practice-notes/tests/acceptance/record"
)

// writeLearnerRecord writes the specification's six completion-record
// fields for this run to path, the run's results filled in and ___ where a
// person must write (record.Generate). A file already there is replaced
// only if an earlier --learner-record wrote it, and what a person wrote
// in its blanks is kept; a record written by hand is never overwritten.
func writeLearnerRecord(path string, rep *harness.Report) error {
	b, err := json.Marshal(rep)
	if err != nil {
		return fmt.Errorf("encoding the run: %w", err)
	}
	run, err := record.DecodeRun(bytes.NewReader(b))
	if err != nil {
		return err
	}
	prev, err := previousRecord(path)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(record.Generate(run, string(prev))), 0o644); err != nil {
		return fmt.Errorf("writing the record: %w", err)
	}
	return nil
}

// previousRecord returns what an earlier --learner-record wrote at path,
// nil when there is no file, and an error for a file it did not write.
// It runs before the checks as well, so that a path it would refuse is
// refused at once, not after the whole run.
func previousRecord(path string) ([]byte, error) {
	prev, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the record there: %w", err)
	case !strings.Contains(string(prev), "<!-- practice-notes acceptance results: begin"):
		return nil, fmt.Errorf("%s exists and was not written by --learner-record: move it away or choose another file", path)
	}
	return prev, nil
}
