package class

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Each kind of project a learner hands in is told apart from files alone:
// installed, or which command installs what it needs.
func TestMissingDeps(t *testing.T) {
	const pkg = `{"type":"module","dependencies":{"@modelcontextprotocol/sdk":"^1.0.0","zod":"^3"}}`
	tests := []struct {
		name        string
		files       map[string]string
		wantInstall string
	}{
		{"nothing to install", map[string]string{"server.py": "print()"}, ""},
		{"node, lock file, no node_modules", map[string]string{"package.json": pkg, "package-lock.json": "{}"}, "npm ci"},
		{"node, no lock file", map[string]string{"package.json": pkg}, "npm install"},
		{"node, one module missing", map[string]string{"package.json": pkg, "package-lock.json": "{}",
			"node_modules/@modelcontextprotocol/sdk/package.json": "{}"}, "npm ci"},
		{"node, installed", map[string]string{"package.json": pkg, "package-lock.json": "{}",
			"node_modules/@modelcontextprotocol/sdk/package.json": "{}", "node_modules/zod/package.json": "{}"}, ""},
		{"node, no dependencies", map[string]string{"package.json": `{"name":"x","devDependencies":{"typescript":"5"}}`}, ""},
		{"python venv, missing", map[string]string{"requirements.txt": "mcp>=1.2  # the SDK\n-e .\n", ".venv/pyvenv.cfg": "home = /usr/bin\n"}, ".venv/bin/pip install -r requirements.txt"},
		{"python venv, installed", map[string]string{"requirements.txt": "mcp>=1.2\nPyYAML[extra]==6\n", ".venv/pyvenv.cfg": "home = /usr/bin\n",
			".venv/lib/python3.11/site-packages/mcp-1.2.0.dist-info/METADATA": "", ".venv/lib/python3.11/site-packages/pyyaml-6.0.dist-info/METADATA": ""}, ""},
		{"python, comments only", map[string]string{"requirements.txt": "# nothing\n\n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			install, msg := missingDeps(context.Background(), Learner{Name: "ada", Dir: dir, Shown: "class/ada"})
			if install != tt.wantInstall {
				t.Errorf("install %q, want %q", install, tt.wantInstall)
			}
			if want := ""; tt.wantInstall != "" {
				want = "dependencies not installed: run " + tt.wantInstall + " in class/ada"
				if msg != want {
					t.Errorf("message %q, want %q", msg, want)
				}
			} else if msg != want {
				t.Errorf("message %q, want none", msg)
			}
		})
	}
}

// The grader's python3 is asked which distributions it has, isolated from
// the learner's folder.
func TestMissingDepsSystemPython(t *testing.T) {
	// python3 must be there and run: a shim with no interpreter behind it
	// is named as such, not mistaken for a finding of the check.
	if out, err := exec.Command("python3", "-c", "pass").CombinedOutput(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("python3 is needed and cannot run: %v %s", err, out)
		}
		t.Skipf("SKIP: python3 is missing or cannot run: %v %s", err, bytes.TrimSpace(out))
	}
	dir := t.TempDir()
	// A module of the learner's that would shadow the standard library's
	// if the check imported from the learner's folder.
	writeFiles(t, dir, map[string]string{
		"requirements.txt": "practice-notes-no-such-distribution==1.0\n",
		"email.py":         "raise SystemExit('learner code ran')\n",
		"zipfile.py":       "raise SystemExit('learner code ran')\n",
	})
	install, _ := missingDeps(context.Background(), Learner{Name: "bea", Dir: dir})
	if install != "python3 -m pip install -r requirements.txt" {
		t.Errorf("install %q", install)
	}
	missing, err := missingInPython(context.Background(), []string{"practice-notes-no-such-distribution"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"practice-notes-no-such-distribution"}, missing); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A go.mod whose modules are not in the module cache: go list, offline,
// says so; a module that requires nothing needs nothing.
func TestMissingDepsGo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs go list")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":  "module learner\n\ngo 1.22\n\nrequire example.com/practice-notes-not-cached v1.0.0\n",
		"main.go": "package main\n\nimport _ \"example.com/practice-notes-not-cached\"\n\nfunc main() {}\n",
	})
	if install, _ := missingDeps(context.Background(), Learner{Name: "gil", Dir: dir}); install != "go mod download" {
		t.Errorf("install %q, want go mod download", install)
	}
	plain := t.TempDir()
	writeFiles(t, plain, map[string]string{"go.mod": "module learner\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"})
	if install, _ := missingDeps(context.Background(), Learner{Name: "hu", Dir: plain}); install != "" {
		t.Errorf("module without requirements: install %q", install)
	}
}

// A learner whose dependencies are missing is reported as such, and the
// harness is not run for them.
func TestGradeReportsMissingDeps(t *testing.T) {
	g := fakeGrader(t)
	dir := makeClass(t, map[string]string{"ada": "pass", "nod": "pass"}, nil)
	writeFiles(t, filepath.Join(dir, "nod"), map[string]string{"package.json": `{"dependencies":{"zod":"3"}}`, "package-lock.json": "{}"})
	learners, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	results := g.Grade(context.Background(), learners, nil)
	nod := results[1]
	if !nod.DepsMissing || nod.Graded || nod.RunParsed != nil || nod.Install != "npm ci" {
		t.Fatalf("nod: %+v", nod)
	}
	if want := "dependencies not installed: run npm ci in " + filepath.Join(dir, "nod"); nod.Error != want {
		t.Errorf("error %q, want %q", nod.Error, want)
	}
	if got := SummaryLine(results); !strings.Contains(got, "1 of 2 learners graded, 1 passed every check; dependencies not installed: nod (run npm ci in ") {
		t.Errorf("summary %q", got)
	}
	if got := ProgressLine(nod, 0); !strings.HasPrefix(got, "nod: dependencies not installed: run npm ci in ") {
		t.Errorf("progress %q", got)
	}
	g.NoDepsCheck = true
	if r := g.Grade(context.Background(), learners, nil)[1]; r.DepsMissing || !r.Graded {
		t.Errorf("with NoDepsCheck, nod: %+v", r)
	}
}
