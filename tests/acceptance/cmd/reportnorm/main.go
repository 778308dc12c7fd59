// Command reportnorm prepares two runs' reports for comparison: it
// rewrites what legitimately differs between two runs of the harness on
// one server with one --seed (times, dates, temp folders, process ids and
// the random fixture tokens) and writes the results, so that any
// remaining difference is a difference in what the reports say.
// scripts/report-identity.sh runs it and diffs its output.
//
//	reportnorm BASE_DIR HEAD_DIR OUT_DIR
//
// It reads the regular files of BASE_DIR and HEAD_DIR (the same names in
// each) and writes them normalized to OUT_DIR/base and OUT_DIR/head.
// Random tokens become <hex1>, <hex2>, … numbered by first appearance
// over the run's files in name order, so a token must recur where its
// counterpart recurs; hex words both runs wrote (hashes, sizes) are
// constants and stay as they are.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: reportnorm BASE_DIR HEAD_DIR OUT_DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "reportnorm:", err)
		os.Exit(2)
	}
}

// run normalizes the files of the two folders into out.
func run(baseDir, headDir, out string) error {
	names, err := fileNames(baseDir, headDir)
	if err != nil {
		return err
	}
	base, err := readAll(baseDir, names)
	if err != nil {
		return err
	}
	head, err := readAll(headDir, names)
	if err != nil {
		return err
	}
	nb, nh := newNormalizers(base, head)
	for side, texts := range map[string][]string{"base": base, "head": head} {
		n := nb
		if side == "head" {
			n = nh
		}
		dir := filepath.Join(out, side)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for i, name := range names {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(n.normalize(texts[i])), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// fileNames returns the sorted names of the regular files in either
// folder; a file only one holds reads as empty in the other.
func fileNames(dirs ...string) ([]string, error) {
	var names []string
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Type().IsRegular() && !slices.Contains(names, e.Name()) {
				names = append(names, e.Name())
			}
		}
	}
	slices.Sort(names)
	return names, nil
}

// readAll reads the named files of dir; a missing one is empty.
func readAll(dir string, names []string) ([]string, error) {
	texts := make([]string, len(names))
	for i, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		texts[i] = string(b)
	}
	return texts, nil
}
