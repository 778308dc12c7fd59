package script

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
// After changing what a command prints, regenerate every block, from the
// repository's root, with
//
//	go test ./tests/script -run TestDocs -update
//
// and review the diff.

import (
	"bytes"
	"context"
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
	data := filepath.Join(repo, "practice-data")
	entries, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			copyFile(t, filepath.Join(data, e.Name()), filepath.Join(dir, "practice-data", e.Name()), 0o644)
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
// with dir shown as docHome. A command that fails is fine (its message may
// be the output shown); one that hangs is not.
func runStep(dir, script string) (string, error) {
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
		return "", fmt.Errorf("%s: %w", script, ctx.Err())
	}
	s := out.String()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		s = strings.ReplaceAll(s, real, docHome)
	}
	return strings.ReplaceAll(s, dir, docHome), nil
}

// completionEvidence is the evidence that the completion record links to.
// Like COMPLETION.md it is a dated record written by one acceptance run
// (scripts/acceptance.sh --record COMPLETION.md --evidence
// docs/completion-evidence.md), not reference text, so its blocks are that
// run's output rather than the commands' output today.
const completionEvidence = "docs/completion-evidence.md"

// docFiles lists README.md and docs/*.md, less the completion evidence, by
// their paths from the repository's root.
func docFiles(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(repo, "docs"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, e := range entries {
		if f := "docs/" + e.Name(); strings.HasSuffix(f, ".md") && f != completionEvidence {
			files = append(files, filepath.FromSlash(f))
		}
	}
	return files
}

// doc is one Markdown document: its path from the repository's root and
// its lines.
type doc struct {
	name  string
	lines []string
}

// checkMarkers reports blocks that look like output but carry no marker,
// and output IDs that are malformed or used twice.
func checkMarkers(docs []doc) (problems []string, err error) {
	seen := map[string]string{}
	for _, d := range docs {
		blocks, err := parseBlocks(d.name, d.lines)
		if err != nil {
			return nil, err
		}
		for _, b := range blocks {
			where := fmt.Sprintf("%s:%d", b.file, b.line)
			switch b.marker {
			case "":
				switch b.info {
				case "", "text", "console", "json", "output":
					problems = append(problems, fmt.Sprintf("%s: a %q block needs <!-- output: ID --> (real output, checked here) or <!-- illustration --> on the line before it", where, b.info))
				}
			case "output":
				if !kebab.MatchString(b.id) {
					problems = append(problems, fmt.Sprintf("%s: output ID %q is not kebab-case", where, b.id))
				}
				if prev, ok := seen[b.id]; ok {
					problems = append(problems, fmt.Sprintf("%s: output ID %q is also used at %s", where, b.id, prev))
				}
				seen[b.id] = where
			}
		}
	}
	return problems, nil
}

// checkOutputs runs the command of each output block of d in dir and
// reports every block whose output differs. It also returns d's lines with
// each such block rewritten to what the commands print now.
func checkOutputs(dir string, d doc) (problems, fresh []string, err error) {
	blocks, err := parseBlocks(d.name, d.lines)
	if err != nil {
		return nil, nil, err
	}
	fresh = d.lines
	for i := len(blocks) - 1; i >= 0; i-- { // from the end, so earlier indexes hold
		b := blocks[i]
		if b.marker != "output" || strings.HasPrefix(b.id, "grading-") {
			continue
		}
		steps, err := parseSteps(b.body)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s:%d (%s): %v", b.file, b.line, b.id, err))
			continue
		}
		var body []string
		stale := false
		for _, s := range steps {
			got, err := runStep(dir, s.script)
			if err != nil {
				return nil, nil, err
			}
			if diff := cmp.Diff(maskVarying(s.want), maskVarying(got)); diff != "" {
				stale = true
				problems = append(problems, fmt.Sprintf("%s:%d (%s): %s prints other than the document shows (-document +real):\n%s", b.file, b.line, b.id, s.command, diff))
			}
			body = append(body, strings.Split(s.command, "\n")...)
			if got != "" {
				body = append(body, strings.Split(strings.TrimSuffix(got, "\n"), "\n")...)
			}
		}
		if !stale {
			continue
		}
		for i, l := range body {
			if l != "" {
				body[i] = b.indent + l
			}
		}
		fresh = slices.Concat(fresh[:b.start], body, fresh[b.end:])
	}
	return problems, fresh, nil
}

func TestDocs(t *testing.T) {
	var docs []doc
	for _, name := range docFiles(t) {
		data, err := os.ReadFile(filepath.Join(repo, name))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc{name, strings.Split(string(data), "\n")})
	}
	problems, err := checkMarkers(docs)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if runtime.GOOS != "linux" {
		t.Skipf("the blocks were recorded on Linux (config shows each system's own paths and hints), and this is %s; the markers were checked", runtime.GOOS)
	}
	dir := docFixture(t)
	for _, d := range docs {
		problems, fresh, err := checkOutputs(dir, d)
		if err != nil {
			t.Fatal(err)
		}
		if !*update {
			for _, p := range problems {
				t.Errorf("%s\nAfter checking the change, rewrite the blocks from the repository's root with: go test ./tests/script -run TestDocs -update", p)
			}
			continue
		}
		if len(problems) > 0 {
			if err := os.WriteFile(filepath.Join(repo, d.name), []byte(strings.Join(fresh, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: rewrote %d outputs", d.name, len(problems))
		}
	}
}

// The checker itself: an edited output, a missing marker, a reused ID and
// a malformed block are each reported; times and durations are not; and
// the rewrite restores the real output.
func TestDocsChecker(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run the commands with")
	}
	dir := t.TempDir()
	d := doc{"x.md", strings.Split(`# x

<!-- output: greeting -->
`+"```"+`
$ printf 'hello\n'
hallo
$ echo "took 1.5ms at 2026-01-02T03:04:05.678Z"
took 99µs at 2020-12-12T00:00:00Z
`+"```"+`

  <!-- output: indented -->
  `+"```"+`
  $ printf 'a\nb\n'
  a
  b
  `+"```"+`

<!-- output: greeting -->
`+"```json"+`
$ true
`+"```"+`

`+"```text"+`
unmarked
`+"```"+`

<!-- illustration -->
`+"```"+`
$ not run
`+"```"+`

<!-- output: no-command -->
`+"```"+`
output without its command
`+"```"+`
`, "\n")}
	markers, err := checkMarkers([]doc{d})
	if err != nil {
		t.Fatal(err)
	}
	outputs, fresh, err := checkOutputs(dir, d)
	if err != nil {
		t.Fatal(err)
	}
	got := append(markers, outputs...)
	for i, p := range got {
		got[i], _, _ = strings.Cut(p, ":\n") // the diff itself is not checked
	}
	want := []string{
		`x.md:19: output ID "greeting" is also used at x.md:4`,
		`x.md:23: a "text" block needs <!-- output: ID --> (real output, checked here) or <!-- illustration --> on the line before it`,
		`x.md:33 (no-command): an output block starts with the command that makes it, as "$ command"`,
		`x.md:4 (greeting): $ printf 'hello\n' prints other than the document shows (-document +real)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems reported (-want +got):\n%s", diff)
	}
	if d.lines[5] != "hallo" {
		t.Fatalf("line 6 of the test document is %q, not the edited output", d.lines[5])
	}
	wantFresh := slices.Concat(d.lines[:5], []string{"hello", `$ echo "took 1.5ms at 2026-01-02T03:04:05.678Z"`, "took 1.5ms at 2026-01-02T03:04:05.678Z"}, d.lines[8:])
	if diff := cmp.Diff(wantFresh, fresh); diff != "" {
		t.Errorf("rewritten document (-want +got):\n%s", diff)
	}
}

// maxReadmeLines keeps README.md a page a learner reads top to bottom;
// reference text goes to docs/.
const maxReadmeLines = 250

func TestReadmeLength(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > maxReadmeLines {
		t.Errorf("README.md has %d lines; keep it at most %d and move reference text to docs/", n, maxReadmeLines)
	}
}
