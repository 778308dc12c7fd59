//go:build live

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeGradeCommand returns the command of the README's "Grade your own
// server" section, split into words as a shell would, and the folder
// placeholder it names for the learner's project.
func readmeGradeCommand(t *testing.T, repo string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Grade your own server\n")
	if !ok {
		t.Fatal(`README.md has no "## Grade your own server" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	m := regexp.MustCompile(`(?m)^go run \./tests/acceptance/cmd/acceptance .*$`).FindString(sec)
	if m == "" {
		t.Fatalf("no `go run ./tests/acceptance/cmd/acceptance` line in the section:\n%s", sec)
	}
	return shellWords(t, m)
}

// shellWords splits a command line as sh does for words, single and
// double quotes and nothing else: the README's command uses no more.
func shellWords(t *testing.T, line string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case strings.ContainsRune("$`\\|&;<>()*?", rune(c)):
			t.Fatalf("the README's command uses %q, which this test does not split: %s", c, line)
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		t.Fatalf("unclosed quote in the README's command: %s", line)
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// TestReadmeGradeCommand runs the README's "Grade your own server"
// command as written, in this repository (which ships a COMPLETION.md of
// its own), with its project folder placeholder replaced by a folder
// holding a Python learner's server.py: the record is written in the
// learner's folder and this repository's is untouched. Then, with a
// record written by hand in the learner's folder, the same command refuses
// before running any check.
func TestReadmeGradeCommand(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("python3 is needed (the README's example server is Python): %v", err)
	}
	repo, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	words := readmeGradeCommand(t, repo)
	const placeholder = "/path/to/your/project"
	// Under isolation as root the server runs as a uid of its own, which
	// must reach the folder: t.TempDir's parent is closed to it.
	project, err := os.MkdirTemp("", "readme-project-")
	if err == nil {
		t.Cleanup(func() { os.RemoveAll(project) })
		err = os.Chmod(project, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i, w := range words {
		if w == placeholder {
			words[i], found = project, true
		}
	}
	if !found {
		t.Fatalf("the README's command names no %s: %q", placeholder, words)
	}
	src, err := os.ReadFile(filepath.Join(repo, "tests", "acceptance", "testdata", "learners", "python", "server.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "server.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile(filepath.Join(repo, "COMPLETION.md"))
	if err != nil {
		t.Fatal(err)
	}
	run := func() (stdout, stderr string, code int) {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, words[0], words[1:]...)
		cmd.Dir = repo
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee):
			code = ee.ExitCode()
		default:
			t.Fatalf("%q: %v\n%s", words, err, errb.String())
		}
		return out.String(), errb.String(), code
	}

	start := time.Now()
	stdout, stderr, code := run()
	t.Logf("the README's command ran in %v", time.Since(start).Round(time.Millisecond))
	if code != 0 {
		t.Fatalf("the README's command: exit %d, want 0 (the example server passes)\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	rec, err := os.ReadFile(filepath.Join(project, "COMPLETION.md"))
	if err != nil {
		t.Fatalf("no record in the learner's folder: %v\nstderr:\n%s", err, stderr)
	}
	if !strings.Contains(string(rec), "| 1 | PASS |") || !strings.Contains(string(rec), "___") {
		t.Errorf("the record written holds no results or no blank for a person:\n%s", rec)
	}
	if now, _ := os.ReadFile(filepath.Join(repo, "COMPLETION.md")); !bytes.Equal(now, ours) {
		t.Errorf("the repository's own COMPLETION.md changed")
	}

	hand := "Boundary tests run: all of them\n"
	if err := os.WriteFile(filepath.Join(project, "COMPLETION.md"), []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	stdout, stderr, code = run()
	// go run exits 1 for any failure of the program; the program's own
	// status 2 shows on stderr.
	if code == 0 || !strings.Contains(stderr, "no check was run") || stdout != "" {
		t.Errorf("with a hand-written record: exit %d, want a refusal before any check\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "COMPLETION.md")); string(b) != hand {
		t.Errorf("the hand-written record changed: %q", b)
	}
	t.Logf("refused in %v", time.Since(start).Round(time.Millisecond))
}
