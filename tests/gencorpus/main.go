// Command gencorpus writes a deterministic corpus of fictional Markdown notes
// for benchmarks. See package practice-notes/tests/corpus for what the
// notes look like and what is guaranteed about the planted and absent
// phrases.
//
// Usage:
//
//	go run ./tests/gencorpus -files 1000 -size 20000 -seed 1 -k 8 -out DIR
//	go run ./tests/gencorpus -files 10000 -size 300 -per-dir 1000 -age 1h -out DIR
//
// It refuses to write into a directory that is not empty, and prints one
// line per fact (files, bytes, phrases, planted files) on stdout.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"

	"practice-notes/tests/corpus"
)

func main() {
	files := flag.Int("files", 1000, "number of note `files`")
	size := flag.Int("size", 20000, "bytes per file (at least 256, at most 102400 to be searched)")
	seed := flag.Uint64("seed", 1, "random `seed`; the same seed gives the same bytes")
	k := flag.Int("k", 8, "number of files holding the planted phrase")
	out := flag.String("out", "", "output `directory` (created; must be empty)")
	perDir := flag.Int("per-dir", 0, "notes per folder; 0 for the default (flat up to 250, else folders of 250), -1 for one folder")
	age := flag.Duration("age", 0, "set every note's modification time this far back")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "gencorpus: give -out DIR and no other arguments")
		flag.Usage()
		os.Exit(2)
	}
	entries, err := os.ReadDir(*out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(os.Stderr, "gencorpus: %v\n", err)
		os.Exit(1)
	}
	if len(entries) > 0 {
		fmt.Fprintf(os.Stderr, "gencorpus: %s is not empty\n", *out)
		os.Exit(1)
	}
	info, err := corpus.Generate(*out, corpus.Options{Files: *files, Size: *size, Seed: *seed, K: *k, PerDir: *perDir, Age: *age})
	if err != nil {
		fmt.Fprintf(os.Stderr, "gencorpus: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("files %d\n", len(info.Files))
	fmt.Printf("bytes %d\n", info.Bytes)
	fmt.Printf("planted %q in %d files\n", corpus.Planted, len(info.Planted))
	fmt.Printf("absent %q\n", corpus.Absent)
	for _, p := range info.Planted {
		fmt.Printf("planted-file %s\n", p)
	}
}
