//go:build linux

package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// unrunnable says why the program name cannot serve a test here: not on
// PATH, or there and failing to run (a shim with no interpreter behind
// it, a file that may not be executed). It returns "" when name runs.
func unrunnable(name string, args ...string) string {
	path, err := exec.LookPath(name)
	if err != nil {
		return name + " is not on PATH"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, args...).CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return name + " is on PATH (" + path + ") but cannot run: " + err.Error() + " " + msg
	}
	return ""
}

// needRunnable skips the test, saying why, when name cannot run here; in
// CI (CI set) that fails it instead, since CI installs every runtime.
func needRunnable(t *testing.T, name string, args ...string) {
	t.Helper()
	why := unrunnable(name, args...)
	switch {
	case why == "":
	case os.Getenv("CI") != "":
		t.Fatalf("%s, and CI must run this test", why)
	default:
		t.Skipf("SKIP: %s (this test starts it)", why)
	}
}

// A runtime that is missing, or on PATH and unable to run (a shim whose
// interpreter is gone, a file without the execute bit), is named with its
// real cause, so that a test skips saying so rather than failing on
// something else.
func TestUnrunnableNamesTheCause(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shim"), []byte("#!/nonexistent/interpreter\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fails"), []byte("#!/bin/sh\necho 'pyenv: python3: command not found' >&2\nexit 127\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, tt := range []struct{ name, want string }{
		{"no-such-runtime-here", "no-such-runtime-here is not on PATH"},
		{"shim", "shim is on PATH (" + filepath.Join(dir, "shim") + ") but cannot run: fork/exec"},
		{"fails", "fails is on PATH (" + filepath.Join(dir, "fails") + ") but cannot run: exit status 127 pyenv: python3: command not found"},
		{"sh", ""},
	} {
		got := unrunnable(tt.name, "-c", "true")
		if !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("%s: %q, want it to start with %q", tt.name, got, tt.want)
		}
	}
}
