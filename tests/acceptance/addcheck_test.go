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
// "Adding a check" describes: its own fixture (an oversized note planted
// around its own process), a probe and a judge.
const throwawayCheck = `package checks

import (
	"os"
	"path/filepath"
	"strings"
)

var check99 = &Check{
	ID:       "99",
	Section:  SectionBoundary,
	Title:    "a note over the size limit planted by its check is not searched",
	Hint:     "Skip files over 102,400 bytes.",
	Says:     ` + "`" + `\bbig notes?\b|\bover the size limit\b` + "`" + `,
	Fixtures: []string{"big-note.md"},
	Process:  WithPlanting,
	Planting: &Planting{Plant: func(dir, marker string) ([]Planted, error) {
		line := "The word " + marker + " and the word throwawayproof share this line.\n"
		text := "# Big\n\n" + line + strings.Repeat("Filler that keeps this note over the limit.\n", 3000)
		return []Planted{{Rel: "big-note.md", What: "a note over the size limit"}},
			os.WriteFile(filepath.Join(dir, "big-note.md"), []byte(text), 0o644)
	}},
	Probe: func(w Wire, f *Facts) bool {
		search(w, "the big note's word", f.Fixtures[TrapPhrase].Marker)
		return true
	},
	Needs: []need{needExchanges},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		ex, _ := f.step("the big note's word")
		if strings.Contains(ex.Reply, "throwawayproof") {
			v.fail(ex, "the reply quotes big-note.md, which is over the size limit")
		}
		v.Summary = "big-note.md was not searched"
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
	for server, want := range map[string]string{"reference": "PASS 99 ", "no-size-limit": "FAIL 99 "} {
		rec := filepath.Join(dir, "recorded-"+server)
		cmd := exec.Command(filepath.Join(bin, "acceptance"), "--server", filepath.Join(bin, server)+" serve -root {root}", "--server-dir", bin,
			"--practice-data", filepath.Join(dir, "tests", "acceptance", "testdata", "practice-data"), "--record-transcripts", rec)
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		_ = cmd.Run() // exit 1 when a check fails
		if !strings.Contains(stdout.String(), "\n"+want) {
			t.Fatalf("%s: no line %q in the report:\n%s", server, want, stdout.String())
		}
		txtar, err := os.ReadFile(filepath.Join(rec, "99.txtar"))
		if err != nil {
			t.Fatal(err)
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
