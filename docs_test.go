package main

// The documents show only output that this test produced, in the spirit
// of cmd/go's script tests.
//
// In README.md and docs/*.md, a fenced block that presents real output is
// immediately preceded by the line
//
//	<!-- output: ID -->
//
// (ID in kebab-case, unique across the documents) and starts with the
// command that makes it, as "$ command" (a line ending in "\" continues on
// the next). TestDocs runs each command with sh in a fresh folder laid out
// as a learner's clone after "go build -o practice-notes .": the built
// binary ./practice-notes and a copy of practice-data/. It compares what
// the command prints, stdout and stderr together, with the lines that
// follow the command, up to the next "$ " line or the end of the block.
// Before comparing, the fixture's temporary path becomes
// /home/you/practice-notes in the output, and times and durations are
// masked on both sides; nothing else may differ.
//
// A block that is only an illustration is preceded by <!-- illustration -->
// and not run. A block with neither marker whose info string is empty,
// "text", "console", "json" or "output" fails the test, since it looks like
// output; blocks of commands to type ("sh") and of code need no marker.
// IDs starting with "grading-" are checked by tests/acceptance.
//
// After changing what a command prints, regenerate every block with
//
//	go test -run TestDocs -update .
//
// and review the diff.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the real-output blocks of README.md and docs/*.md with what the commands print now")

// docHome stands in for the fixture's temporary path in the documents.
const docHome = "/home/you/practice-notes"

// docBlock is one fenced block of a document.
type docBlock struct {
	file   string
	line   int    // line number of the opening fence, from 1
	start  int    // index of the first content line
	end    int    // index of the closing fence
	indent string // the fence's indentation, removed from content lines
	info   string // first word of the info string
	marker string // "output", "illustration" or ""
	id     string
	body   []string // content lines, without the indentation
}

var (
	outputMarker = regexp.MustCompile(`^<!-- output: (\S+) -->$`)
	kebab        = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	fenceLine    = regexp.MustCompile("^( *)(```+|~~~+)\\s*(\\S*)")
)

// parseBlocks returns the fenced blocks of a Markdown document.
func parseBlocks(file string, lines []string) ([]docBlock, error) {
	var blocks []docBlock
	for i := 0; i < len(lines); i++ {
		m := fenceLine.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		b := docBlock{file: file, line: i + 1, start: i + 1, indent: m[1], info: m[3]}
		if i > 0 {
			prev := strings.TrimSpace(lines[i-1])
			if om := outputMarker.FindStringSubmatch(prev); om != nil {
				b.marker, b.id = "output", om[1]
			} else if prev == "<!-- illustration -->" {
				b.marker = "illustration"
			}
		}
		fence := m[2]
		j := i + 1
		for ; j < len(lines); j++ {
			t := strings.TrimLeft(lines[j], " ")
			if t = strings.TrimSpace(t); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				break
			}
		}
		if j == len(lines) {
			return nil, fmt.Errorf("%s:%d: fenced block is not closed", file, i+1)
		}
		b.end = j
		for _, l := range lines[i+1 : j] {
			b.body = append(b.body, strings.TrimPrefix(l, b.indent))
		}
		blocks = append(blocks, b)
		i = j
	}
	return blocks, nil
}

// docStep is one "$ command" of an output block and the output it shows.
type docStep struct {
	command string // as shown, continuation lines included
	script  string // as given to sh
	want    string
}

func parseSteps(body []string) ([]docStep, error) {
	if len(body) == 0 || !strings.HasPrefix(body[0], "$ ") {
		return nil, fmt.Errorf(`an output block starts with the command that makes it, as "$ command"`)
	}
	var steps []docStep
	for i := 0; i < len(body); {
		cmdLines := []string{body[i]}
		for strings.HasSuffix(cmdLines[len(cmdLines)-1], `\`) && i+len(cmdLines) < len(body) {
			cmdLines = append(cmdLines, body[i+len(cmdLines)])
		}
		i += len(cmdLines)
		var out []string
		for ; i < len(body) && !strings.HasPrefix(body[i], "$ "); i++ {
			out = append(out, body[i])
		}
		want := strings.Join(out, "\n")
		if len(out) > 0 {
			want += "\n"
		}
		steps = append(steps, docStep{
			command: strings.Join(cmdLines, "\n"),
			script:  strings.TrimPrefix(strings.Join(cmdLines, "\n"), "$ "),
			want:    want,
		})
	}
	return steps, nil
}

var (
	timeStamp = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)|[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT`)
	duration  = regexp.MustCompile(`\b(\d+h)?(\d+m)?\d+(\.\d+)?(ns|µs|us|ms|s)\b`)
)

// maskVarying hides what differs from run to run: times and durations.
func maskVarying(s string) string {
	s = timeStamp.ReplaceAllString(s, "<time>")
	return duration.ReplaceAllString(s, "<duration>")
}

// docFixture lays out a learner's clone after "go build": the binary and a
// copy of the sample notes.
func docFixture(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "practice-notes")
	if err := os.MkdirAll(filepath.Join(dir, "practice-data"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, binary(t), filepath.Join(dir, "practice-notes"), 0o755)
	entries, err := os.ReadDir("practice-data")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			copyFile(t, filepath.Join("practice-data", e.Name()), filepath.Join(dir, "practice-data", e.Name()), 0o644)
		}
	}
	return dir
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// runStep runs one command with sh in dir and returns what it printed,
// with dir shown as docHome.
func runStep(t *testing.T, dir, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PRACTICE_NOTES_ROOT=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out // one pipe, so the order is the terminal's
	if err := cmd.Run(); err != nil && ctx.Err() != nil {
		t.Fatalf("%s: %v", script, ctx.Err())
	}
	s := out.String()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		s = strings.ReplaceAll(s, real, docHome)
	}
	return strings.ReplaceAll(s, dir, docHome)
}

// docFiles lists README.md and docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, files...)
}

func TestDocs(t *testing.T) {
	seen := map[string]string{}
	type docFile struct {
		name   string
		lines  []string
		blocks []docBlock
	}
	var docs []docFile
	for _, name := range docFiles(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		blocks, err := parseBlocks(name, lines)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			where := fmt.Sprintf("%s:%d", b.file, b.line)
			switch b.marker {
			case "":
				switch b.info {
				case "", "text", "console", "json", "output":
					t.Errorf("%s: a %q block needs <!-- output: ID --> (real output, checked here) or <!-- illustration --> on the line before it", where, b.info)
				}
			case "output":
				if !kebab.MatchString(b.id) {
					t.Errorf("%s: output ID %q is not kebab-case", where, b.id)
				}
				if prev, ok := seen[b.id]; ok {
					t.Errorf("%s: output ID %q is also used at %s", where, b.id, prev)
				}
				seen[b.id] = where
			}
		}
		docs = append(docs, docFile{name, lines, blocks})
	}
	if runtime.GOOS != "linux" {
		t.Skipf("the blocks were recorded on Linux (config shows each system's own paths and hints), and this is %s; the markers were checked", runtime.GOOS)
	}
	dir := docFixture(t)
	for _, d := range docs {
		type edit struct {
			start, end int
			lines      []string
		}
		var edits []edit
		for _, b := range d.blocks {
			if b.marker != "output" || strings.HasPrefix(b.id, "grading-") {
				continue
			}
			steps, err := parseSteps(b.body)
			if err != nil {
				t.Errorf("%s:%d (%s): %v", b.file, b.line, b.id, err)
				continue
			}
			var fresh []string
			for _, s := range steps {
				got := runStep(t, dir, s.script)
				if diff := cmp.Diff(maskVarying(s.want), maskVarying(got)); diff != "" && !*update {
					t.Errorf("%s:%d (%s): %s prints other than the document shows (-document +real); after checking the change, rewrite with go test -run TestDocs -update .\n%s", b.file, b.line, b.id, s.command, diff)
				}
				fresh = append(fresh, strings.Split(s.command, "\n")...)
				if got != "" {
					fresh = append(fresh, strings.Split(strings.TrimSuffix(got, "\n"), "\n")...)
				}
			}
			if *update && !slices.Equal(fresh, b.body) {
				for i, l := range fresh {
					if l != "" {
						fresh[i] = b.indent + l
					}
				}
				edits = append(edits, edit{b.start, b.end, fresh})
				t.Logf("%s:%d (%s): rewritten", b.file, b.line, b.id)
			}
		}
		if len(edits) == 0 {
			continue
		}
		lines := d.lines
		for i := len(edits) - 1; i >= 0; i-- { // from the end, so earlier indexes hold
			e := edits[i]
			lines = slices.Concat(lines[:e.start], e.lines, lines[e.end:])
		}
		if err := os.WriteFile(d.name, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
