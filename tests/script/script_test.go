// Package script holds the tests that run the built practice-notes binary
// or police the repository. Each end-to-end test is a script in
// testdata/*.txtar, as in cmd/go, run by
// github.com/rogpeppe/go-internal/testscript with the binary on its PATH
// as practice-notes; the checks of the repository as a whole (the output
// README.md and docs/*.md show is real, no write calls in the product
// code, SECURITY.md names real tests) are Go tests beside them.
//
// Run one script with
//
//	go test ./tests/script -run TestScripts/^serve_signals$
//
// Each script starts in an empty $WORK holding a copy of practice-data/,
// the layout of a learner's clone, and the files of its archive. Besides
// testscript's own commands (see "go doc testscript"), scripts have
// wire, which drives a program over stdin and stdout the way an MCP client
// does, status, which checks an exact exit status, json, which checks that
// a file holds one JSON object, tree, which lists a folder to show it
// unchanged, and write, which writes bytes given as a Go string literal;
// see commands_test.go. In the environment, $PRACTICE_NOTES is the
// binary's absolute path, $REPO the repository's root and $ESC the escape
// character.
package script

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the real-output blocks of README.md and docs/*.md (TestDocs), and the archive files that the scripts' cmp commands compare with (TestScripts), with what the commands print now")

// repo is the repository's root, relative to this package.
const repo = "../.."

var (
	buildOnce sync.Once
	binPath   string // the built binary, with no symbolic link in its path
	buildErr  error
)

// binary builds practice-notes once per test run and returns its path.
func binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "practice-notes-script")
		if err != nil {
			buildErr = err
			return
		}
		if dir, err = filepath.EvalSymlinks(dir); err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "practice-notes")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		out, err := exec.Command("go", "build", "-o", binPath, "practice-notes").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// goEnv is what "go" needs in a script that runs it: testscript gives
// scripts a HOME of /no-home, where go could keep no cache.
var goEnv = []string{"GOCACHE", "GOPATH", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GOTOOLCHAIN"}

func TestScripts(t *testing.T) {
	bin := binary(t)
	root, err := filepath.Abs(repo)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", append([]string{"env"}, goEnv...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	goValues := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(goValues) != len(goEnv) {
		t.Fatalf("go env printed %q for %q", goValues, goEnv)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Cmds:                commands,
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Setenv("PRACTICE_NOTES", bin)
			env.Setenv("REPO", root)
			env.Setenv("ESC", "\x1b")
			for i, name := range goEnv {
				env.Setenv(name, goValues[i])
			}
			return copyDir(filepath.Join(repo, "practice-data"), filepath.Join(env.WorkDir, "practice-data"))
		},
	})
}

// copyDir copies the regular files of from into a new directory to.
func copyDir(from, to string) error {
	if err := os.Mkdir(to, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
