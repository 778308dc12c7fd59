//go:build linux

package fusetest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The test file system lists and reads its files, and a blocked read
// returns only once released.
func TestMount(t *testing.T) {
	if !InPrivateMountNamespace(t) {
		return
	}
	fs := Mount(t, map[string]string{"a.md": "alpha\n", "sub/b.md": "beta\n", "stuck.md": "never\n"},
		func(name string) bool { return name == "stuck.md" })
	got, err := os.ReadFile(filepath.Join(fs.Dir, "sub", "b.md"))
	if err != nil || string(got) != "beta\n" {
		t.Fatalf("read sub/b.md = %q, %v", got, err)
	}
	entries, err := os.ReadDir(fs.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"a.md", "stuck.md", "sub"}, names); diff != "" {
		t.Errorf("ReadDir (-want +got):\n%s", diff)
	}
	done := make(chan error, 1)
	go func() {
		_, err := os.ReadFile(filepath.Join(fs.Dir, "stuck.md"))
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("a blocked read returned: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	fs.Release()
	select {
	case <-done: // EIO, or the contents when the kernel reads again
	case <-time.After(5 * time.Second):
		t.Fatal("a released read did not return")
	}
}
