//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// The probe's folder beside the server's is one the server must not see:
// never a folder on the way to one it is shown, such as the grader's home
// beside a clone, which holds a toolchain the server runs.
func TestBesideFolderPassesOverWhatIsShown(t *testing.T) {
	parent := t.TempDir()
	project := filepath.Join(parent, "practice-notes")
	home := filepath.Join(parent, "home")
	toolchain := filepath.Join(home, ".pyenv")
	for _, d := range []string{project, toolchain} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := besideFolder(project, []string{toolchain, project}); got != "" {
		t.Errorf("besideFolder with only the home of a shown toolchain beside = %q, want none", got)
	}
	if got := besideFolder(project, nil); got != home {
		t.Errorf("besideFolder with nothing shown = %q, want %q", got, home)
	}
	classmate := filepath.Join(parent, "bob")
	if err := os.Mkdir(classmate, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := besideFolder(project, []string{toolchain, project}); got != classmate {
		t.Errorf("besideFolder with a classmate beside = %q, want %q", got, classmate)
	}
}
