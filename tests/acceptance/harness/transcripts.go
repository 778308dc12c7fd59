package harness

import (
	"fmt"
	"os"
	"path/filepath"

	"practice-notes/tests/acceptance/checks"
)

// transcript is one check's part of this run, as checks.EncodeTranscript
// writes it.
type recordedTranscript struct {
	id   string
	data []byte
	err  error
}

// transcribe keeps the transcripts of the checks judged on facts; temp
// paths are replaced, so that a transcript reads the same from any run.
func (r *runner) transcribe(list []*checks.Check, facts *checks.Facts) {
	f := *facts
	f.Stderr = untemp(f.Stderr)
	if f.Files != nil {
		files := *f.Files
		files.Before, files.After = untempStates(files.Before), untempStates(files.After)
		f.Files = &files
	}
	f.Leftovers = nil
	for _, l := range facts.Leftovers {
		var lines []string
		for _, line := range l.Lines {
			lines = append(lines, untemp(line))
		}
		f.Leftovers = append(f.Leftovers, checks.Leftover{Process: l.Process, Lines: lines, Runtime: l.Runtime})
	}
	comment := fmt.Sprintf("server: %s", untemp(r.cfg.Server))
	for _, def := range list {
		data, err := checks.EncodeTranscript(def, comment, &f)
		r.rep.transcripts = append(r.rep.transcripts, recordedTranscript{id: def.ID, data: data, err: err})
	}
}

// WriteTranscripts writes one transcript per check judged from recorded
// facts into dir, as ID.txtar: copied under
// tests/acceptance/checks/testdata/transcripts, each is a test of its
// check's judge.
func (r *Report) WriteTranscripts(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, t := range r.transcripts {
		if t.err != nil {
			return fmt.Errorf("transcript of check %s: %w", t.id, t.err)
		}
		if err := os.WriteFile(filepath.Join(dir, t.id+".txtar"), t.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func untempStates(states map[string]checks.FileState) map[string]checks.FileState {
	out := make(map[string]checks.FileState, len(states))
	for p, st := range states {
		st.Target = untemp(st.Target)
		out[p] = st
	}
	return out
}
