package class

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// A learner's server runs in a sandbox with no network, so what it
// imports must be installed in the learner's folder (or the grader's
// caches) before grading. Without that, every check fails for a reason
// the learner did not cause. missingDeps finds that case from files alone
// and from the grader's own tools, never by running anything the learner
// wrote.

// missingDeps says what the learner's folder needs and has not got: the
// commands that install it, and the message "dependencies not installed:
// run CMD in DIR" (DIR as the instructor named it); both are "" when
// nothing is missing.
func missingDeps(ctx context.Context, l Learner) (install, message string) {
	var fixes []string
	for _, check := range []func(context.Context, string) string{nodeDeps, goDeps, pythonDeps} {
		if fix := check(ctx, l.Dir); fix != "" {
			fixes = append(fixes, fix)
		}
	}
	if len(fixes) == 0 {
		return "", ""
	}
	where := l.Shown
	if where == "" {
		where = l.Dir
	}
	install = strings.Join(fixes, " && ")
	return install, "dependencies not installed: run " + strings.Join(fixes, " and ") + " in " + where
}

// nodeDeps: a package.json whose dependencies are not all in node_modules.
func nodeDeps(_ context.Context, dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return ""
	}
	var pkg struct {
		Dependencies map[string]any `json:"dependencies"`
	}
	if json.Unmarshal(b, &pkg) != nil {
		return ""
	}
	var missing []string
	for name := range pkg.Dependencies {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json")); err != nil {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	for _, lock := range []string{"package-lock.json", "npm-shrinkwrap.json"} {
		if _, err := os.Stat(filepath.Join(dir, lock)); err == nil {
			return "npm ci"
		}
	}
	return "npm install"
}

// goDeps: a go.mod whose required modules are not in the grader's module
// cache. go list runs offline (GOPROXY=off) and builds nothing.
func goDeps(ctx context.Context, dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !bytes.Contains(b, []byte("require")) {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly", "GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &stderr
	if err := cmd.Run(); err == nil {
		return ""
	}
	msg := stderr.String()
	if strings.Contains(msg, "GOPROXY=off") || strings.Contains(msg, "missing go.sum entry") || strings.Contains(msg, "no required module provides") {
		return "go mod download"
	}
	return ""
}

var reqNameRe = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)`)

// pythonDeps: a requirements.txt naming distributions that neither the
// folder's virtual environment (.venv, venv or env) nor the grader's
// python3 has installed.
func pythonDeps(ctx context.Context, dir string) string {
	f, err := os.Open(filepath.Join(dir, "requirements.txt"))
	if err != nil {
		return ""
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if m := reqNameRe.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			names = append(names, m[1])
		}
	}
	if len(names) == 0 {
		return ""
	}
	for _, venv := range []string{".venv", "venv", "env"} {
		if _, err := os.Stat(filepath.Join(dir, venv, "pyvenv.cfg")); err != nil {
			continue
		}
		if missing := missingInVenv(filepath.Join(dir, venv), names); len(missing) > 0 {
			return venv + "/bin/pip install -r requirements.txt"
		}
		return ""
	}
	missing, err := missingInPython(ctx, names)
	if err != nil || len(missing) == 0 {
		return ""
	}
	return "python3 -m pip install -r requirements.txt"
}

// normDist is a distribution name as PEP 503 compares them.
func normDist(s string) string { return strings.ToLower(distSepRe.ReplaceAllString(s, "-")) }

var distSepRe = regexp.MustCompile(`[-_.]+`)

// missingInVenv reads the venv's *.dist-info folder names; the venv's own
// python is the learner's and is not run.
func missingInVenv(venv string, names []string) []string {
	have := map[string]bool{}
	infos, _ := filepath.Glob(filepath.Join(venv, "lib", "python*", "site-packages", "*.dist-info"))
	more, _ := filepath.Glob(filepath.Join(venv, "Lib", "site-packages", "*.dist-info"))
	for _, p := range append(infos, more...) {
		name, _, _ := strings.Cut(strings.TrimSuffix(filepath.Base(p), ".dist-info"), "-")
		have[normDist(name)] = true
	}
	var missing []string
	for _, n := range names {
		if !have[normDist(n)] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	return missing
}

// missingInPython asks the grader's python3, isolated (-I: no current
// folder, no user site, no PYTHON* variables) and outside the learner's
// folder, so that no file of the learner is imported.
func missingInPython(ctx context.Context, names []string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	const script = `import sys, importlib.metadata as m
for n in sys.argv[1:]:
    try:
        m.distribution(n)
    except m.PackageNotFoundError:
        print(n)
`
	cmd := exec.CommandContext(ctx, "python3", append([]string{"-I", "-c", script}, names...)...)
	cmd.Dir = os.TempDir()
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("python3: %w: %s", err, ee.Stderr)
		}
		return nil, fmt.Errorf("python3: %w", err)
	}
	return strings.Fields(string(out)), nil
}
