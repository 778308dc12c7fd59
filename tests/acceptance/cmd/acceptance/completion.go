package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"practice-notes/tests/acceptance/class"
	"practice-notes/tests/acceptance/harness"
	"practice-notes/tests/acceptance/record"
)

// checkCompletion grades the completion record at path against this run,
// as a class's grading does for each learner, and prints the checks, the
// record's grade and the final "N passed, M failed" line. It reports
// whether the record is consistent with the run.
func checkCompletion(w io.Writer, path string, rep *harness.Report) (bool, error) {
	raw, err := json.Marshal(rep)
	if err != nil {
		return false, fmt.Errorf("encoding the run: %w", err)
	}
	run, err := record.DecodeRun(bytes.NewReader(raw))
	if err != nil {
		return false, err
	}
	v, err := record.CheckFile(path, run)
	if err != nil {
		return false, err
	}
	class.WriteRecordCheck(w, &class.Result{RunParsed: run, Run: raw, Record: v})
	return v.State == record.Consistent, nil
}
