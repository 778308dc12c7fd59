//go:build unix

package truth

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoad describes a real directory holding every kind of entry, and
// checks what Load makes of each and what Ask answers over it.
func TestLoad(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "root")
	text := "The loadmark phrase.\n"
	mk := func(rel, data string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("a.md", text)
	mk("sub/b.txt", text)
	mk(".hidden/c.md", text)
	mk("big.md", strings.Repeat("y", FileLimit)+text)
	mk("locked.md", text)
	if err := os.WriteFile(filepath.Join(base, "outside.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(base, "outdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "outdir", "d.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"escape.md": "../outside.md", "inner-link.md": "a.md", "linked": "../outdir", "dangling.md": "missing.md"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(base, "outside.md"), filepath.Join(dir, "shared.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "locked.md"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(dir, "locked.md"), 0o644) })

	tree, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]Kind{}
	for name, e := range tree {
		kinds[name] = e.Kind
	}
	wantKinds := map[string]Kind{
		"a.md": Regular, "sub": Dir, "sub/b.txt": Regular, ".hidden": Dir, ".hidden/c.md": Regular,
		"big.md": Regular, "locked.md": Regular, "escape.md": Symlink, "inner-link.md": Symlink,
		"linked": Symlink, "dangling.md": Symlink, "shared.md": Regular, "pipe.md": FIFO,
	}
	if diff := cmp.Diff(wantKinds, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if e := tree["escape.md"]; e.Target != "../outside.md" {
		t.Errorf("escape.md target = %q", e.Target)
	}
	if e := tree["shared.md"]; e.Links != 2 {
		t.Errorf("shared.md links = %d, want 2", e.Links)
	}
	if e := tree["big.md"]; len(e.Data) != FileLimit+1 {
		t.Errorf("big.md holds %d bytes, want the first %d", len(e.Data), FileLimit+1)
	}
	if e := tree["locked.md"]; !e.Unreadable {
		t.Errorf("locked.md is not unreadable")
	}

	a := Ask(tree, "loadmark phrase")
	got := map[string]Room{}
	for _, h := range a.Hits {
		got[h.File] = h.Room
	}
	want := map[string]Room{"a.md": 0, "sub/b.txt": RoomNoteExt, ".hidden/c.md": RoomHidden, "shared.md": RoomHardLink}
	var unread []string
	if os.Geteuid() == 0 {
		want["locked.md"] = RoomUnreadable // root reads it anyway
	} else {
		unread = []string{"locked.md"}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(unread, a.Unread); diff != "" {
		t.Errorf("Unread (-want +got):\n%s", diff)
	}
}

func TestLoadMissing(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Load of a missing directory did not fail")
	}
}

// TestLoadLinkedRoot describes a root reached through a link: the root is
// followed, nothing below it.
func TestLoadLinkedRoot(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "a.md"), []byte("text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(base, "root")); err != nil {
		t.Fatal(err)
	}
	tree, err := Load(filepath.Join(base, "root"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Tree{"a.md": {Kind: Regular, Data: []byte("text\n"), Links: 1}}, tree); diff != "" {
		t.Errorf("Load (-want +got):\n%s", diff)
	}
}
