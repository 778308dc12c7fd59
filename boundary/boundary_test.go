package boundary

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const outsideMarker = "OUTSIDE-MARKER-7f3a"

// fixture builds, under one temporary directory:
//
//	outside.md               a file beside the root, holding outsideMarker
//	outside-dir/secret.md    a directory outside the root
//	notes/                   the root
//	notes-evil/evil.md       a sibling whose name extends the root's
func fixture(t *testing.T) (base, rootDir string) {
	t.Helper()
	base = t.TempDir()
	rootDir = filepath.Join(base, "notes")
	write(t, filepath.Join(base, "outside.md"), outsideMarker+"\n")
	write(t, filepath.Join(base, "outside-dir", "secret.md"), outsideMarker+" in a directory\n")
	write(t, filepath.Join(base, "notes-evil", "evil.md"), outsideMarker+" next door\n")
	write(t, filepath.Join(rootDir, "a.md"), "# A\n\nalpha note\n")
	write(t, filepath.Join(rootDir, "sub", "b.txt"), "beta note\n")
	return base, rootDir
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, dir string) *Root {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestReadFileRefusals(t *testing.T) {
	base, rootDir := fixture(t)
	outside := filepath.Join(base, "outside.md")
	symlink := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(rootDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	symlink(outside, "link-out.md")
	symlink("../outside.md", "link-rel.md")
	symlink("a.md", "link-in.md")
	symlink(filepath.Join(base, "outside-dir"), "linkdir")
	symlink("link-out.md", "chain.md")
	symlink(filepath.Join(base, "missing.md"), "dangling.md")
	symlink("/dev/zero", "zero.md")
	mkfifo(t, filepath.Join(rootDir, "fifo.md"))
	write(t, filepath.Join(rootDir, "big.md"), strings.Repeat("x", MaxFileSize+1))
	write(t, filepath.Join(rootDir, "nulbyte.md"), "text\x00more")
	write(t, filepath.Join(rootDir, "latin1.md"), "caf\xe9")
	if err := os.Mkdir(filepath.Join(rootDir, "dir.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(rootDir, "linked.md"), "linked twice\n")
	if err := os.Link(filepath.Join(rootDir, "linked.md"), filepath.Join(base, "hardlink-outside.md")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(rootDir, "script.sh"), "echo hi\n")

	r := open(t, rootDir)
	tests := []struct {
		name string
		want error
	}{
		{"../outside.md", errInvalidName},
		{outside, errInvalidName},
		{"/etc/passwd", errInvalidName},
		{"sub/../../outside.md", errInvalidName},
		{"../notes-evil/evil.md", errInvalidName},
		{"./a.md", errInvalidName},
		{"sub//b.txt", errInvalidName},
		{"sub\\b.txt", errInvalidName},
		{"a.md\x00", errInvalidName},
		{"C:a.md", errInvalidName},
		{"", errInvalidName},
		{"link-out.md", errSymlink},
		{"link-rel.md", errSymlink},
		{"link-in.md", errSymlink},
		{"linkdir/secret.md", errSymlink},
		{"chain.md", errSymlink},
		{"dangling.md", errSymlink},
		{"zero.md", errSymlink},
		{"fifo.md", errNotRegular},
		{"dir.md", errNotRegular},
		{"big.md", errTooLarge},
		{"nulbyte.md", errNotText},
		{"latin1.md", errNotText},
		{"linked.md", errHardLinks},
		{"script.sh", errNotNote},
		{"missing.md", ErrNotFound},
		{"sub/missing.md", ErrNotFound},
		{"missing/b.md", ErrNotFound},
		{"a.md/b.md", errUnreadable},
		{"sub/link.md", errSymlink},
		{"linkdir/deeper/secret.md", errSymlink},
	}
	symlink(outside, "sub/link.md")
	eachOpenPath(t, r, func(t *testing.T) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				data, err := r.ReadNote(context.Background(), tt.name)
				if !errors.Is(err, tt.want) {
					t.Fatalf("ReadNote(%q) = %q, %v; want error %v", tt.name, data, err, tt.want)
				}
				if data != nil {
					t.Errorf("ReadNote(%q) returned data with an error: %q", tt.name, data)
				}
				if msg := err.Error(); strings.Contains(msg, base) && !strings.Contains(tt.name, base) ||
					strings.Contains(msg, outsideMarker) {
					t.Errorf("error %q leaks a path or outside content", msg)
				}
			})
		}
	})
}

func TestReadFileAccepts(t *testing.T) {
	_, rootDir := fixture(t)
	write(t, filepath.Join(rootDir, "limit.md"), strings.Repeat("y", MaxFileSize))
	write(t, filepath.Join(rootDir, "empty.md"), "")
	write(t, filepath.Join(rootDir, "Upper.MARKDOWN"), "shouting\n")
	r := open(t, rootDir)
	tests := []struct {
		name string
		want string
	}{
		{"a.md", "# A\n\nalpha note\n"},
		{"sub/b.txt", "beta note\n"},
		{"limit.md", strings.Repeat("y", MaxFileSize)},
		{"empty.md", ""},
		{"Upper.MARKDOWN", "shouting\n"},
	}
	eachOpenPath(t, r, func(t *testing.T) {
		for _, tt := range tests {
			got, err := r.ReadNote(context.Background(), tt.name)
			if err != nil {
				t.Errorf("ReadNote(%q): %v", tt.name, err)
				continue
			}
			if string(got) != tt.want {
				t.Errorf("ReadNote(%q) = %d bytes, want %d", tt.name, len(got), len(tt.want))
			}
		}
	})
}

func TestWalk(t *testing.T) {
	base, rootDir := fixture(t)
	if err := os.Symlink(filepath.Join(base, "outside.md"), filepath.Join(rootDir, "link-out.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "outside-dir"), filepath.Join(rootDir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, filepath.Join(rootDir, "fifo.md"))
	write(t, filepath.Join(rootDir, ".hidden.md"), "hidden\n")
	write(t, filepath.Join(rootDir, ".git", "x.md"), "hidden dir\n")
	write(t, filepath.Join(rootDir, "image.png"), "not a note")
	write(t, filepath.Join(rootDir, "a", "z.md"), "nested\n")
	write(t, filepath.Join(rootDir, "a.txt"), "before a/ in byte order\n")
	// Refused at walk time, as a read would refuse them, so that a listing
	// (resources/list) never offers a note that cannot be read.
	write(t, filepath.Join(rootDir, "big.md"), strings.Repeat("x", MaxFileSize+1))
	write(t, filepath.Join(rootDir, "a", "big.txt"), strings.Repeat("x", 10<<20))
	write(t, filepath.Join(rootDir, "limit.md"), strings.Repeat("y", MaxFileSize))
	write(t, filepath.Join(rootDir, "linked.md"), "linked twice\n")
	if err := os.Link(filepath.Join(rootDir, "linked.md"), filepath.Join(base, "hardlink-outside.md")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(rootDir, "sub", "twin1.md"), "one file, two names\n")
	if err := os.Link(filepath.Join(rootDir, "sub", "twin1.md"), filepath.Join(rootDir, "sub", "twin2.md")); err != nil {
		t.Fatal(err)
	}

	got, err := open(t, rootDir).Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := &Listing{
		Notes: notes("a.md", "a.txt", "a/z.md", "limit.md", "sub/b.txt"),
		Skipped: []Skipped{
			{"a/big.txt", errTooLarge},
			{"big.md", errTooLarge},
			{"fifo.md", errNotRegular},
			{"link-out.md", errSymlink},
			{"linkdir", errSymlink},
			{"linked.md", errHardLinks},
			{"sub/twin1.md", errHardLinks},
			{"sub/twin2.md", errHardLinks},
		},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b }), cmpopts.IgnoreUnexported(Note{})); diff != "" {
		t.Errorf("Walk mismatch (-want +got):\n%s", diff)
	}
}

// TestWalkOrder: notes come in byte order of their whole names, as they
// are found, even where a directory's name sorts differently from the
// names of its files ("a/z.md" after "a-b.md" and "a.md", before "a0.md").
func TestWalkOrder(t *testing.T) {
	rootDir := t.TempDir()
	want := []string{
		"a b.md", "a-b.md", "a.md", "a/a b/c.md", "a/a.md", "a/a/b.md", "a/a0.md", "a/z.md",
		"a0.md", "a0/x.md", "b.txt", "b/.x/no.md", "b/c.md", "é.md", "é/x.md",
	}
	for _, name := range want {
		write(t, filepath.Join(rootDir, filepath.FromSlash(name)), name+"\n")
	}
	want = slices.DeleteFunc(want, func(n string) bool { return strings.Contains(n, "/.") })
	var yielded []string
	listing, err := open(t, rootDir).WalkFunc(context.Background(), func(n Note) { yielded = append(yielded, n.Name) })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(want) {
		t.Fatalf("the test's own list is not sorted: %q", want)
	}
	if diff := cmp.Diff(want, yielded); diff != "" {
		t.Errorf("notes in walk order (-want +got):\n%s", diff)
	}
	if listing.Notes != nil {
		t.Errorf("WalkFunc's Listing holds Notes: %v", names(listing))
	}
}

func TestWalkDepthLimit(t *testing.T) {
	rootDir := t.TempDir()
	deep := rootDir
	for range MaxDepth + 2 {
		deep = filepath.Join(deep, "d")
	}
	write(t, filepath.Join(deep, "deep.md"), "too deep\n")
	write(t, filepath.Join(rootDir, "top.md"), "top\n")
	got, err := open(t, rootDir).Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"top.md"}, names(got)); diff != "" || !got.Incomplete {
		t.Errorf("Walk of a too-deep tree: Incomplete=%v, notes diff:\n%s", got.Incomplete, diff)
	}
}

// A note replaced by a symbolic link after the walk listed it must not be
// followed when it is read.
func TestSwapBetweenWalkAndRead(t *testing.T) {
	base, rootDir := fixture(t)
	r := open(t, rootDir)
	listing, err := r.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !contains(names(listing), "a.md") {
		t.Fatalf("a.md not listed: %v", names(listing))
	}
	swaps := []struct {
		name string
		swap func(t *testing.T, path string) error
		want error
	}{
		{"symlink outside", func(_ *testing.T, p string) error { return os.Symlink(filepath.Join(base, "outside.md"), p) }, errSymlink},
		{"symlink inside", func(_ *testing.T, p string) error { return os.Symlink("sub/b.txt", p) }, errSymlink},
		{"fifo", func(t *testing.T, p string) error { mkfifo(t, p); return nil }, errNotRegular},
		{"directory", func(_ *testing.T, p string) error { return os.Mkdir(p, 0o755) }, errNotRegular},
		{"large file", func(_ *testing.T, p string) error {
			return os.WriteFile(p, bytes.Repeat([]byte("z"), 10<<20), 0o644)
		}, errTooLarge},
	}
	for _, s := range swaps {
		t.Run(s.name, func(t *testing.T) {
			p := filepath.Join(rootDir, "a.md")
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
			if err := s.swap(t, p); err != nil {
				t.Fatal(err)
			}
			data, err := r.ReadNote(context.Background(), "a.md")
			if !errors.Is(err, s.want) {
				t.Fatalf("after swap: ReadNote = %q, %v; want %v", data, err, s.want)
			}
		})
	}
}

// A nested note, or a directory on the way to it, replaced by a symbolic
// link after the walk listed the note must not be followed when it is read,
// whether the link points outside the root or inside it.
func TestSwapNestedBetweenWalkAndRead(t *testing.T) {
	for _, tt := range []struct {
		name   string
		note   string // the note read
		target string // what a link is made to (relative to the root)
		swap   string // the note or directory replaced by the link
	}{
		{"note to outside", "sub/deep/c.md", "../../../outside.md", "sub/deep/c.md"},
		{"note to inside", "sub/deep/c.md", "../../a.md", "sub/deep/c.md"},
		{"directory to outside", "sub/b.txt", "../outside-dir", "sub"},
		{"directory to outside, absolute", "sub/b.txt", "", "sub"},
		{"directory to inside", "sub/b.txt", "other", "sub"},
		{"upper directory to outside", "sub/deep/c.md", "../outside-dir", "sub"},
		{"upper directory to inside", "sub/deep/c.md", "other", "sub"},
		{"lower directory to outside", "sub/deep/c.md", "../../outside-dir/deep", "sub/deep"},
		{"lower directory to inside", "sub/deep/c.md", "../other/deep", "sub/deep"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base, rootDir := fixture(t)
			write(t, filepath.Join(rootDir, "sub", "deep", "c.md"), "nested note\n")
			// The same names outside and elsewhere inside, so that a
			// followed link would find a note to read.
			for _, dir := range []string{filepath.Join(base, "outside-dir"), filepath.Join(rootDir, "other")} {
				write(t, filepath.Join(dir, "b.txt"), outsideMarker+"\n")
				write(t, filepath.Join(dir, "deep", "c.md"), outsideMarker+"\n")
			}
			r := open(t, rootDir)
			listing, err := r.Walk(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !contains(names(listing), tt.note) {
				t.Fatalf("%s not listed: %v", tt.note, names(listing))
			}
			p := filepath.Join(rootDir, filepath.FromSlash(tt.swap))
			if err := os.Rename(p, filepath.Join(base, "moved-away")); err != nil {
				t.Fatal(err)
			}
			target := tt.target
			if target == "" {
				target = filepath.Join(base, "outside-dir")
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			data, err := r.ReadNote(context.Background(), tt.note)
			if !errors.Is(err, errSymlink) || data != nil {
				t.Fatalf("after the swap: ReadNote(%q) = %q, %v; want %v", tt.note, data, err, errSymlink)
			}
		})
	}
}

func TestOpenRootErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.md")
	write(t, file, "x")
	for _, tt := range []struct {
		dir, want string
	}{
		{filepath.Join(dir, "missing"), "does not exist"},
		{file, "is not a directory"},
	} {
		_, err := Open(tt.dir)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q) = %v; want an error saying %q", tt.dir, err, tt.want)
		}
	}
	r, err := Open(".")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !filepath.IsAbs(r.Dir()) {
		t.Errorf("Dir() = %q, want an absolute path", r.Dir())
	}
}

// Reading never changes anything under the root.
func TestReadOnly(t *testing.T) {
	_, rootDir := fixture(t)
	before := snapshot(t, rootDir)
	r := open(t, rootDir)
	listing, err := r.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range listing.Notes {
		if _, err := r.ReadNote(context.Background(), n.Name); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(before, snapshot(t, rootDir)); diff != "" {
		t.Errorf("the root changed (-before +after):\n%s", diff)
	}
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		m[p] = info.Mode().String() + " " + info.ModTime().String()
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[p] += " " + string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// notes returns Notes of the given names, for comparing with a Listing's
// with the unexported fields ignored.
func notes(names ...string) []Note {
	ns := make([]Note, len(names))
	for i, n := range names {
		ns[i].Name = n
	}
	return ns
}

// names returns the names of a Listing's notes.
func names(l *Listing) []string {
	var ns []string
	for _, n := range l.Notes {
		ns = append(ns, n.Name)
	}
	return ns
}
