package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"practice-notes/tests/acceptance/checks"
)

// transcript is one check's part of this run, as checks.EncodeTranscript
// writes it.
type recordedTranscript struct {
	id string
	// encode writes it; it runs only when transcripts are written.
	encode func() ([]byte, error)
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
	f.Layout = r.layoutFacts()
	comment := fmt.Sprintf("server: %s", untemp(r.cfg.Server))
	for _, def := range list {
		r.rep.transcripts = append(r.rep.transcripts, recordedTranscript{id: def.ID,
			encode: func() ([]byte, error) { return checks.EncodeTranscript(def, comment, &f) }})
	}
}

// transcribeRule keeps the transcript of a run-wide rule judged on facts,
// named rule-NAME. Its facts keep the run's temp paths: the leak rule
// reads them; of its replies and output it keeps what shows a leak and a
// few that show none.
func (r *runner) transcribeRule(rule *checks.Rule, facts *checks.Facts) {
	layout, comment := r.layoutFacts(), fmt.Sprintf("server: %s", untemp(r.cfg.Server))
	r.rep.transcripts = append(r.rep.transcripts, recordedTranscript{id: "rule-" + strings.ReplaceAll(rule.Name, " ", "-"),
		encode: func() ([]byte, error) {
			f := *facts
			if rule == checks.LeakRule() {
				f = *checks.LeakTranscriptFacts(facts)
			}
			f.Layout = layout
			return checks.EncodeRuleTranscript(rule, comment, &f)
		}})
}

// layoutFacts is what rebuilds this run's fixtures.
func (r *runner) layoutFacts() *checks.Layout {
	return &checks.Layout{Seed: r.lay.Seed, PracticeData: r.cfg.PracticeData, TempFolder: r.lay.Base}
}

// WriteTranscripts writes one transcript per check judged from recorded
// facts, and per run-wide rule, into dir, as ID.txtar or rule-NAME.txtar:
// copied under tests/acceptance/checks/testdata/transcripts, each is a
// test of its judge. A transcript that cannot be written (a server's line
// that would read as a section marker) is named in the error; the others
// are written.
func (r *Report) WriteTranscripts(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var errs []error
	for _, t := range r.transcripts {
		data, err := t.encode()
		if err != nil {
			errs = append(errs, fmt.Errorf("transcript %s: %w", t.id, err))
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, t.id+".txtar"), data, 0o644); err != nil {
			return err
		}
	}
	return errors.Join(errs...)
}

func untempStates(states map[string]checks.FileState) map[string]checks.FileState {
	out := make(map[string]checks.FileState, len(states))
	for p, st := range states {
		st.Target = untemp(st.Target)
		out[p] = st
	}
	return out
}
