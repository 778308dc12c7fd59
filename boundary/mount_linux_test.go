package boundary

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"practice-notes/boundary/fusetest"
)

// Mount points inside the root are never crossed: a bind-mounted directory,
// a bind-mounted single file (both from the root's own file system, so
// device numbers alone cannot tell) and a tmpfs are skipped by the walk with
// a reason and refused by a read. The mounts are made in a private mount
// namespace, in a copy of this test binary, so nothing outside the test
// sees them.
func TestMountPointsAreNotCrossed(t *testing.T) {
	if !fusetest.InPrivateMountNamespace(t) {
		return
	}
	base := t.TempDir()
	rootDir := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	write(t, filepath.Join(outside, "secret.md"), outsideMarker+"\n")
	write(t, filepath.Join(outside, "sub", "deep.md"), outsideMarker+" deep\n")
	write(t, filepath.Join(rootDir, "a.md"), "inside\n")
	write(t, filepath.Join(rootDir, "file.md"), "covered by a bind mount\n")
	write(t, filepath.Join(rootDir, "mnt", "covered.md"), "covered\n")
	write(t, filepath.Join(rootDir, "tmp", "covered.md"), "covered\n")
	mount := func(src, dst, fstype string, flags uintptr) {
		t.Helper()
		if err := syscall.Mount(src, dst, fstype, flags, ""); err != nil {
			t.Fatalf("mount %s on %s: %v", src, dst, err)
		}
		t.Cleanup(func() { syscall.Unmount(dst, syscall.MNT_DETACH) })
	}
	mount(outside, filepath.Join(rootDir, "mnt"), "", syscall.MS_BIND)
	mount(filepath.Join(outside, "secret.md"), filepath.Join(rootDir, "file.md"), "", syscall.MS_BIND)
	mount("tmpfs", filepath.Join(rootDir, "tmp"), "tmpfs", 0)
	write(t, filepath.Join(rootDir, "tmp", "other.md"), outsideMarker+" on tmpfs\n")

	r := open(t, rootDir)
	ctx := context.Background()
	listing, err := r.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := &Listing{
		Notes: notes("a.md"),
		Skipped: []Skipped{
			{"file.md", errMountPoint},
			{"mnt", errMountPoint},
			{"tmp", errMountPoint},
		},
	}
	if diff := cmp.Diff(want, listing, cmp.Comparer(func(a, b error) bool { return a == b }), cmpopts.IgnoreUnexported(Note{})); diff != "" {
		t.Errorf("Walk mismatch (-want +got):\n%s", diff)
	}
	for _, name := range []string{"file.md", "mnt/secret.md", "mnt/sub/deep.md", "tmp/other.md"} {
		data, err := r.ReadNote(ctx, name)
		if !errors.Is(err, errMountPoint) || data != nil {
			t.Errorf("ReadNote(%q) = %q, %v; want %v", name, data, err, errMountPoint)
		}
	}
	// An EXDEV on these names is a mount, not a directory moved away.
	for _, name := range []string{"file.md", "mnt/secret.md", "mnt/sub/deep.md", "tmp/other.md"} {
		if r.movedOut(name) {
			t.Errorf("movedOut(%q) = true; want false, it is behind a mount point", name)
		}
	}
	if !r.movedOut("a.md") {
		t.Errorf("movedOut(%q) = false; want true, no mount is on its path", "a.md")
	}
	// Without openat2 (before Linux 5.6, or where seccomp refuses it) a
	// read refuses every mount point too, bind mounts of the root's own
	// file system included, however it learns of them: from mount IDs by
	// statx or by /proc/self/fdinfo, or from the mount table.
	r.mount.xdev = false
	id, ids := r.mount.id, r.mount.ids
	if ids != statxMountIDs {
		t.Errorf("mount IDs learnt from source %d; want statx (%d) on this kernel", ids, statxMountIDs)
	}
	for _, src := range []mountIDSource{statxMountIDs, fdinfoMountIDs, noMountIDs} {
		r.mount.ids = src
		if src != noMountIDs {
			got, err := mountID(int(r.dot.Fd()), src)
			if err != nil || got != id {
				t.Errorf("mount ID of the root from source %d: %d, %v; want %d", src, got, err, id)
			}
		}
		for _, name := range []string{"file.md", "mnt/secret.md", "mnt/sub/deep.md", "tmp/other.md"} {
			data, err := r.ReadNote(ctx, name)
			if !errors.Is(err, errMountPoint) || data != nil {
				t.Errorf("without openat2, mount IDs from source %d: ReadNote(%q) = %q, %v; want %v", src, name, data, err, errMountPoint)
			}
		}
		if data, err := r.ReadNote(ctx, "a.md"); err != nil || string(data) != "inside\n" {
			t.Errorf("without openat2, mount IDs from source %d: ReadNote(%q) = %q, %v", src, "a.md", data, err)
		}
	}
	r.mount.ids = ids
}

// The mount table is read again after a mount or an unmount made between
// two walks, and only then: bind mounts of the root's own file system
// (same device, so only the table shows them) made after a first walk are
// skipped by the next one, and listed again once unmounted.
func TestMountMadeBetweenWalksIsSeen(t *testing.T) {
	if !fusetest.InPrivateMountNamespace(t) {
		return
	}
	base := t.TempDir()
	rootDir := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	write(t, filepath.Join(outside, "secret.md"), outsideMarker+"\n")
	write(t, filepath.Join(rootDir, "a.md"), "inside\n")
	write(t, filepath.Join(rootDir, "file.md"), "inside, until a file is bind-mounted on it\n")
	write(t, filepath.Join(rootDir, "mnt", "b.md"), "inside, until a directory is bind-mounted on it\n")

	r := open(t, rootDir)
	ctx := context.Background()
	walk := func(when string, want *Listing) {
		t.Helper()
		got, err := r.Walk(ctx)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b }), cmpopts.IgnoreUnexported(Note{})); diff != "" {
			t.Errorf("%s: Walk mismatch (-want +got):\n%s", when, diff)
		}
	}
	unmounted := &Listing{Notes: notes("a.md", "file.md", "mnt/b.md")}
	walk("before any mount", unmounted)

	for _, m := range [][2]string{{outside, "mnt"}, {filepath.Join(outside, "secret.md"), "file.md"}} {
		if err := syscall.Mount(m[0], filepath.Join(rootDir, m[1]), "", syscall.MS_BIND, ""); err != nil {
			t.Fatalf("bind mount on %s: %v", m[1], err)
		}
		defer syscall.Unmount(filepath.Join(rootDir, m[1]), syscall.MNT_DETACH)
	}
	walk("after two bind mounts", &Listing{
		Notes:   notes("a.md"),
		Skipped: []Skipped{{"file.md", errMountPoint}, {"mnt", errMountPoint}},
	})
	first := r.mountPoints()
	if again := r.mountPoints(); len(first) != 2 || reflect.ValueOf(again).UnsafePointer() != reflect.ValueOf(first).UnsafePointer() {
		t.Errorf("mount points %v, then %v: want the same two, not read again while nothing was mounted", first, again)
	}

	for _, name := range []string{"mnt", "file.md"} {
		if err := syscall.Unmount(filepath.Join(rootDir, name), 0); err != nil {
			t.Fatalf("unmount %s: %v", name, err)
		}
	}
	walk("after unmounting them", unmounted)
}

// TestCloseReleasesHandles: after a walk, which keeps mountinfo open, Close
// leaves no descriptor of the Root open.
func TestCloseReleasesHandles(t *testing.T) {
	open := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.md"), "a note\n")
	before := open()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Walk(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r.mount.real != "" && r.mount.table.info == nil {
		t.Fatal("the walk did not keep mountinfo open")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if after := open(); after != before {
		t.Errorf("%d descriptors open before Open, %d after Close", before, after)
	}
}
