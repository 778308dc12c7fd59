//go:build live

package acceptance_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// throwawayCheck is a whole check in one file, as docs/grading-checks.md's
// "Adding a check" describes: its own fixture (a note over the size
// limit, planted in the root by its value with words of the run's
// stream), a probe that searches the fixture's word and a judge that
// reads the fixture's facts.
const throwawayCheck = `package checks

import "strings"

// check99Note is a note over the size limit whose proof word shares its
// marker's line.
var check99Note = &Plant{Name: "big-note.md", Make: func(g *Ground) (Fixture, error) {
	f := Fixture{Rel: "big-note.md", Marker: "bigmark-" + g.Token(5), Proof: "throwawayproof" + g.Token(4)}
	line := "The word " + f.Marker + " and the word " + f.Proof + " share this line.\n"
	text := "# Big\n\n" + line + strings.Repeat("Filler that keeps this note over the limit.\n", 3000)
	return f, g.Write(g.Root, f.Rel, text)
}}

var check99 = &Check{
	ID:       "99",
	Section:  SectionBoundary,
	Title:    "a note over the size limit planted by its check is not searched",
	Hint:     "Skip files over 102,400 bytes.",
	Says:     ` + "`" + `\bbig notes?\b|\bover the size limit\b` + "`" + `,
	Fixtures: []*Plant{check99Note},
	Probe: func(w Wire, f *Facts) bool {
		search(w, "the big note's word", f.of(check99Note).Marker)
		return true
	},
	Needs: []need{needFixtures, needExchanges},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		note := f.of(check99Note)
		ex, _ := f.step("the big note's word")
		if note.Proof == "" {
			v.Skip = "the big note was not planted"
			return v
		}
		if strings.Contains(ex.Reply, note.Proof) {
			v.fail(ex, "the reply quotes %s, which is over the size limit", note.Rel)
		}
		v.Summary = note.Rel + " was not searched"
		return v
	},
}
`

// TestAddingACheck follows docs/grading-checks.md's "Adding a check" in a copy
// of the repository: the check's file and one line of list.go, then the
// catalog test fails until the check has its two transcripts, recorded
// by the acceptance command on a server that keeps its rule (reference)
// and one that breaks it (no-size-limit); with them the checks' tests
// pass. Nothing else of the copy is edited.
func TestAddingACheck(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(binDir, "add-a-check")
	if err := copyRepo(repo, dir); err != nil {
		t.Fatal(err)
	}
	checksDir := filepath.Join(dir, "tests", "acceptance", "checks")
	if err := os.WriteFile(filepath.Join(checksDir, "check99.go"), []byte(throwawayCheck), 0o644); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(checksDir, "list.go")
	b, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "\tcheck22,\n", "\tcheck22,\n\tcheck99,\n", 1)
	if edited == string(b) {
		t.Fatal("list.go has no line \"check22,\" to add check99 after")
	}
	if err := os.WriteFile(list, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}

	goCmd := func(args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := goCmd("test", "-run", "TestCatalogBothWays", "./tests/acceptance/checks")
	if err == nil || !strings.Contains(out, "check 99: no transcript that passes it") {
		t.Fatalf("without transcripts the catalog test should fail on check 99; it said (%v):\n%s", err, out)
	}

	bin := filepath.Join(dir, "bin")
	if out, err := goCmd("build", "-o", bin+string(filepath.Separator), "./tests/acceptance/cmd/acceptance",
		"./tests/acceptance/testdata/servers/reference", "./tests/acceptance/testdata/servers/no-size-limit"); err != nil {
		t.Fatalf("building: %v\n%s", err, out)
	}
	// The fixture's own value planted it, the probe found it by its facts
	// (no-size-limit quotes the proof word), and the transcript records
	// those facts under its name.
	for server, want := range map[string][]string{
		"reference":     {"\nPASS 99 big-note.md was not searched"},
		"no-size-limit": {"\nFAIL 99 ", "FAIL: the reply quotes big-note.md, which is over the size limit"},
	} {
		rec := filepath.Join(dir, "recorded-"+server)
		cmd := exec.Command(filepath.Join(bin, "acceptance"), "--server", filepath.Join(bin, server)+" serve -root {root}", "--server-dir", bin,
			"--practice-data", filepath.Join(dir, "tests", "acceptance", "testdata", "practice-data"), "--record-transcripts", rec)
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		_ = cmd.Run() // exit 1 when a check fails
		for _, w := range want {
			if !strings.Contains(stdout.String(), w) {
				t.Fatalf("%s: no %q in the report:\n%s", server, w, stdout.String())
			}
		}
		txtar, err := os.ReadFile(filepath.Join(rec, "99.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(txtar), `"big-note.md": {`) || !strings.Contains(string(txtar), `"marker": "bigmark-`) {
			t.Fatalf("%s: 99.txtar records no facts of the fixture big-note.md:\n%s", server, txtar)
		}
		to := filepath.Join(checksDir, "testdata", "transcripts", "throwaway-"+server, "99.txtar")
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, txtar, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := goCmd("test", "./tests/acceptance/checks"); err != nil {
		t.Fatalf("with its transcripts, the checks' tests should pass (%v):\n%s", err, out)
	}
}

// copyRepo copies the repository's files, without .git and the folders
// of installed packages, into dst.
func copyRepo(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		switch name := d.Name(); {
		case d.IsDir() && (name == ".git" || name == "node_modules" || name == ".node-demo" || name == ".interop"):
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, filepath.Join(dst, rel))
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
		}
		return nil
	})
}
