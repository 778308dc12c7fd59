// Package class grades a class of learners: each learner's server through
// the acceptance harness, run as a separate process per learner in
// parallel and bounded in time, and each learner's completion record
// against that run. It renders the results for a spreadsheet, a person and
// a browser, and writes feedback for each learner. A learner that cannot be
// graded is reported as such and never stops the others.
package class

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ErrUsage marks a class folder that cannot be graded at all.
var ErrUsage = errors.New("usage")

// Learner is one folder of the class.
type Learner struct {
	Name string
	Dir  string // absolute
	// Shown is the folder as the instructor named it (the class folder
	// given on the command line, joined with Name), for messages.
	Shown string
	// Command is the first line of server.cmd that is neither blank nor a
	// "#" comment; Problem says why there is none.
	Command string
	Problem string
}

// The files a learner's folder holds.
const (
	CommandFile = "server.cmd"
	RecordFile  = "COMPLETION.md"
)

// reserved names would collide with the class-wide outputs.
var reserved = map[string]bool{"summary": true, "index": true}

// Discover lists the learners of classDir: every folder in it whose name
// does not start with a dot, sorted by name.
func Discover(classDir string) ([]Learner, error) {
	abs, err := filepath.Abs(classDir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUsage, err)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("%w: class folder: %w", ErrUsage, err)
	}
	var out []Learner
	// Output files are named after fileBase of the learner's name; two
	// names that give the same file (also on a case-insensitive disk)
	// would overwrite each other's results.
	files := map[string]string{}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if reserved[strings.ToLower(e.Name())] {
			return nil, fmt.Errorf("%w: a learner folder named %q would overwrite the class's own %s output; rename it", ErrUsage, e.Name(), e.Name())
		}
		key := strings.ToLower(fileBase(e.Name()))
		if other, ok := files[key]; ok {
			return nil, fmt.Errorf("%w: learner folders %q and %q would write the same output files; rename one", ErrUsage, other, e.Name())
		}
		files[key] = e.Name()
		l := Learner{Name: e.Name(), Dir: filepath.Join(abs, e.Name()), Shown: filepath.Join(classDir, e.Name())}
		l.Command, l.Problem = readCommand(filepath.Join(l.Dir, CommandFile))
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no learner folders in %s (each learner is a folder holding %s)", ErrUsage, classDir, CommandFile)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func readCommand(path string) (command, problem string) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "no " + CommandFile + " in the learner's folder"
	}
	if err != nil {
		return "", fmt.Sprintf("reading %s: %v", CommandFile, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			return line, ""
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Sprintf("reading %s: %v", CommandFile, err)
	}
	return "", CommandFile + " holds no command line"
}
