package boundary

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Reader reads into the caller's buffer, with every check of ReadNote.
func TestReadFileBuffer(t *testing.T) {
	base, rootDir := fixture(t)
	atLimit := strings.Repeat("a", MaxFileSize-1) + "\n"
	write(t, filepath.Join(rootDir, "limit.md"), atLimit)
	write(t, filepath.Join(rootDir, "over.md"), atLimit+"b")
	write(t, filepath.Join(rootDir, "nulbyte.md"), "a\x00b\n")
	if err := os.Symlink(filepath.Join(base, "outside.md"), filepath.Join(rootDir, "link.md")); err != nil {
		t.Fatal(err)
	}
	r := open(t, rootDir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rd := r.NewReader()
	defer rd.Close()
	big := make([]byte, 0, MaxFileSize+1)
	page := make([]byte, 0, 4096) // larger than a.md, smaller than limit.md
	for _, buf := range [][]byte{big, page, make([]byte, 3), nil} {
		for _, name := range []string{"a.md", "sub/b.txt", "limit.md"} {
			want, err := r.ReadNote(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := rd.Read(ctx, Note{Name: name}, buf)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("Read(%q, cap %d) = %d bytes, %v; want %d bytes", name, cap(buf), len(got), err, len(want))
			}
			fits := cap(buf) > len(want)
			if uses := len(got) > 0 && cap(buf) > 0 && &got[0] == &buf[:1][0]; uses != fits {
				t.Errorf("Read(%q, cap %d) of %d bytes: used the buffer given: %v, want %v", name, cap(buf), len(want), uses, fits)
			}
		}
		for name, reason := range map[string]error{"over.md": errTooLarge, "nulbyte.md": errNotText, "link.md": errSymlink, "../outside.md": errInvalidName} {
			got, _, err := rd.Read(ctx, Note{Name: name}, buf)
			if !errors.Is(err, reason) || got != nil {
				t.Errorf("Read(%q, cap %d) = %q, %v; want %v", name, cap(buf), got, err, reason)
			}
		}
	}
}

// readLimited reads a file that is longer than its buffer, or than the size
// it had when it was checked, as one that grew since, but never past the
// limit.
func TestReadLimitedGrowth(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 5000, MaxFileSize, MaxFileSize + 1, 3 * MaxFileSize} {
		p := filepath.Join(dir, "f")
		content := bytes.Repeat([]byte("x"), size)
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, c := range []int{0, 7, size + 1, MaxFileSize + 1} {
			// The size seen at the check: right, or older and smaller.
			for _, checked := range []int64{int64(size), int64(size / 2), 0} {
				f, err := os.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				got, err := readLimited(f.Read, make([]byte, 0, c), checked)
				f.Close()
				want := min(size, MaxFileSize+1)
				if err != nil || len(got) != want {
					t.Errorf("size %d (checked %d), cap %d: read %d bytes, %v; want %d", size, checked, c, len(got), err, want)
				}
			}
		}
	}
}
