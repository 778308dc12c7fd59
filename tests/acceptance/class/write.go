package class

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// WriteAll writes the five kinds of output into outDir, creating it:
// summary.csv, summary.md, index.html, and <learner>.md and <learner>.json
// for each learner.
func WriteAll(outDir string, results []*Result) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	write := func(name string, render func(*bytes.Buffer) error) error {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			return fmt.Errorf("rendering %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(outDir, name), b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		return nil
	}
	for _, r := range results {
		r := r
		if err := write(fileBase(r.Learner)+".md", func(b *bytes.Buffer) error { return writeFeedback(b, r) }); err != nil {
			return err
		}
		if err := write(fileBase(r.Learner)+".json", func(b *bytes.Buffer) error {
			enc := json.NewEncoder(b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			// The run counts checks that could not run as failed; the
			// file says which they were and how many really failed.
			view := struct {
				*Result
				Failed int      `json:"failed"`
				NotRun []string `json:"notRun,omitempty"`
			}{r, 0, notRun(r)}
			if r.RunParsed != nil {
				view.Failed = failedCount(r)
			}
			if err := enc.Encode(view); err != nil {
				return err
			}
			b2 := jsonText(b.Bytes())
			b.Reset()
			b.Write(b2)
			return nil
		}); err != nil {
			return err
		}
	}
	if err := write("summary.csv", func(b *bytes.Buffer) error { return writeCSV(b, results) }); err != nil {
		return err
	}
	if err := write("summary.md", func(b *bytes.Buffer) error { return writeMarkdownSummary(b, results) }); err != nil {
		return err
	}
	return write("index.html", func(b *bytes.Buffer) error { return writePage(b, results) })
}
