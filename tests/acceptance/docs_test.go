//go:build live

package acceptance_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gradingOutputs produce, for each real-output block of docs/grading.md
// (a fenced block right after "<!-- output: grading-ID -->"), what the
// command it shows prints now.
var gradingOutputs = map[string]func(t *testing.T) string{
	"grading-help": func(t *testing.T) string {
		out, _ := runScript(t, "--help")
		return out
	},
	"grading-case-sensitive": func(t *testing.T) string {
		return checkBlock(t, "9", "--seed", "1", "--server", "python3 tests/acceptance/testdata/learners/python/server.py --root {root} --defect case-sensitive")
	},
	"grading-fifo": func(t *testing.T) string {
		return checkBlock(t, "20", "--seed", "1", "--timeout", "2s", "--server", "python3 tests/acceptance/testdata/learners/python/server.py --root {root} --defect fifo")
	},
}

// checkBlock runs the script and returns the lines of one check: its
// PASS/FAIL/WARN/SKIP line and the evidence and fix lines under it.
func checkBlock(t *testing.T, id string, args ...string) string {
	t.Helper()
	need(t, "python3")
	out, _ := runScript(t, args...)
	var block []string
	in := false
	for _, l := range strings.Split(out, "\n") {
		if m := checkLineRe.FindStringSubmatch(l); m != nil {
			in = m[2] == id
		} else if !strings.HasPrefix(l, "    ") {
			in = false
		}
		if in {
			block = append(block, l)
		}
	}
	if len(block) == 0 {
		t.Fatalf("no lines for check %s in:\n%s", id, out)
	}
	return strings.Join(block, "\n") + "\n"
}

var (
	outputMarkRe = regexp.MustCompile("(?m)^<!-- output: (grading-[a-z0-9-]+) -->\n(`{3,}|~{3,})[^\n]*\n")
	durationRe   = regexp.MustCompile(`\b\d+ ms\b`)
	tempRe       = regexp.MustCompile(regexp.QuoteMeta(filepath.Clean(os.TempDir())) + `/[^\s/"']+`)
)

// normalizeOutput keeps what a reader should see and masks only what
// varies from run to run: durations and temp paths.
func normalizeOutput(s string) string {
	s = durationRe.ReplaceAllString(s, "N ms")
	return tempRe.ReplaceAllString(s, "/tmp/…")
}

// checkedByClassTest lists the blocks of "Grading a class", which
// TestClassEndToEnd (tests/acceptance/class) compares with a real class run.
var checkedByClassTest = map[string]bool{"grading-class-stdout": true, "grading-class-summary-csv": true,
	"grading-class-summary-md": true, "grading-learner-eve": true, "grading-learner-cal-excerpt": true}

// TestGradingDocs compares every real-output block of docs/grading.md with
// what its command prints now, so a stale or edited block fails.
//
// With -update it writes the output of now into the blocks instead.
func TestGradingDocs(t *testing.T) {
	docPath := filepath.Join("..", "..", "docs", "grading.md")
	b, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	updated := doc
	found := map[string]bool{}
	for _, m := range outputMarkRe.FindAllStringSubmatchIndex(doc, -1) {
		id, fence := doc[m[2]:m[3]], doc[m[4]:m[5]]
		rest := doc[m[1]:]
		end := strings.Index(rest, "\n"+fence+"\n")
		if end < 0 {
			t.Errorf("block %s is not closed", id)
			continue
		}
		shown := rest[:end+1]
		found[id] = true
		if checkedByClassTest[id] {
			continue
		}
		gen, ok := gradingOutputs[id]
		if !ok {
			t.Errorf("docs/grading.md has block %s, which no test produces", id)
			continue
		}
		t.Run(id, func(t *testing.T) {
			now := gen(t)
			if *update {
				updated = strings.Replace(updated, fence+"\n"+shown+fence+"\n", fence+"\n"+tempRe.ReplaceAllString(now, "/tmp/…")+fence+"\n", 1)
				return
			}
			got := normalizeOutput(now)
			if diff := cmp.Diff(normalizeOutput(shown), got); diff != "" {
				t.Errorf("docs/grading.md block %s differs from the output now (-doc +now):\n%s", id, diff)
			}
		})
	}
	for id := range gradingOutputs {
		if !found[id] {
			t.Errorf("docs/grading.md has no block %s", id)
		}
	}
	if *update && updated != doc {
		if err := os.WriteFile(docPath, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var update = flag.Bool("update", false, "write the output of now into docs/grading.md's real-output blocks")
