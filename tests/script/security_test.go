package script

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSecurityNamesRealTests: every test or fuzz target SECURITY.md names
// as the evidence for a promise exists, and so does every script it names
// as TestScripts/NAME, so no promise rests on a test that was renamed or
// deleted.
func TestSecurityNamesRealTests(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repo, "SECURITY.md"))
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	funcRE := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)\w+)\(`)
	err = filepath.WalkDir(repo, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != repo || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range funcRE.FindAllSubmatch(src, -1) {
			defined[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile("`((?:Test|Fuzz)[A-Z]\\w*)`").FindAllSubmatch(doc, -1)
	if len(named) < 20 {
		t.Fatalf("SECURITY.md names only %d tests", len(named))
	}
	for _, m := range named {
		if !defined[string(m[1])] {
			t.Errorf("SECURITY.md names %s, which no test file defines", m[1])
		}
	}
	for _, m := range regexp.MustCompile("`TestScripts/(\\w+)`").FindAllSubmatch(doc, -1) {
		if _, err := os.Stat(filepath.Join("testdata", string(m[1])+".txtar")); err != nil {
			t.Errorf("SECURITY.md names the script %s, which tests/script/testdata does not hold", m[1])
		}
	}
}
