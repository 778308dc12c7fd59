package boundary

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"practice-notes/boundary/seam"
)

// The fault seam: an error from the hook is taken as the operating system's
// answer, on the one Root it was installed on and no other.
func TestFaultHook(t *testing.T) {
	_, rootDir := fixture(t)
	write(t, filepath.Join(rootDir, "closed", "inner.md"), "inner\n")
	r := open(t, rootDir)
	var (
		mu    sync.Mutex // the hook is called concurrently
		calls []string
	)
	r.injectFaults(func(_ context.Context, op seam.Op, name string) error {
		mu.Lock()
		calls = append(calls, map[seam.Op]string{seam.ListDir: "list", seam.ReadFile: "read", seam.Opened: "opened"}[op]+" "+name)
		mu.Unlock()
		switch {
		case op == seam.ReadFile && name == "a.md":
			return &fs.PathError{Op: "open", Path: "/INJECTED/a.md", Err: fs.ErrPermission}
		case op == seam.ReadFile && name == "sub/b.txt":
			return fs.ErrNotExist
		case op == seam.ListDir && name == "closed":
			return fs.ErrPermission
		}
		return nil
	})
	listing, err := r.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := &Listing{
		Notes:   notes("a.md", "sub/b.txt"),
		Skipped: []Skipped{{"closed", errUnreadable}},
	}
	if diff := cmp.Diff(want, listing, cmp.Comparer(func(a, b error) bool { return a == b }), cmpopts.IgnoreUnexported(Note{})); diff != "" {
		t.Errorf("Walk mismatch (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		name string
		want error
	}{
		{"a.md", errUnreadable},
		{"sub/b.txt", ErrNotFound},
	} {
		data, err := r.ReadNote(context.Background(), tt.name)
		if !errors.Is(err, tt.want) || data != nil {
			t.Errorf("ReadNote(%q) = %q, %v; want %v", tt.name, data, err, tt.want)
		}
	}
	slices.Sort(calls) // a directory lists its entries in no set order
	wantCalls := []string{"list .", "list closed", "list sub", "read a.md", "read sub/b.txt"}
	if diff := cmp.Diff(wantCalls, calls); diff != "" {
		t.Errorf("hook calls (-want +got):\n%s", diff)
	}

	// Another Root on the same folder has no hook.
	if _, err := open(t, rootDir).ReadNote(context.Background(), "a.md"); err != nil {
		t.Errorf("a Root without a hook: %v", err)
	}
}

// TestHardLinkRemovedAfterOpen: a note that is a hard link to a file outside
// the root has two links when it is opened; if the link is removed right
// after the open (the seam gives the moment; the removal is real), the open
// file has one link, yet it is the outside file. It must be refused, and so
// must a note replaced by another file after the open.
func TestHardLinkRemovedAfterOpen(t *testing.T) {
	base := t.TempDir()
	rootDir := filepath.Join(base, "root")
	write(t, filepath.Join(base, "secret.md"), outsideMarker+"\n")
	if err := os.MkdirAll(filepath.Join(rootDir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"link.md", "sub/link.md"} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(rootDir, filepath.FromSlash(name))
			if err := os.Link(filepath.Join(base, "secret.md"), p); err != nil {
				t.Fatal(err)
			}
			r := open(t, rootDir)
			r.injectFaults(func(ctx context.Context, op seam.Op, n string) error {
				if op == seam.Opened && n == name {
					if err := os.Remove(p); err != nil {
						t.Error(err)
					}
				}
				return nil
			})
			data, err := r.ReadNote(context.Background(), name)
			if err == nil || strings.Contains(string(data), outsideMarker) {
				t.Fatalf("ReadNote(%q) = %q, %v; want a refusal", name, data, err)
			}
		})
	}
	// A note renamed over once after it was opened is opened again, and
	// found; one renamed over after every open is refused as replaced.
	for _, tc := range []struct {
		renames int
		want    string
		reason  error
	}{
		{renames: 1, want: "second\n"},
		{renames: maxRereads + 1, reason: errReplaced},
	} {
		t.Run(fmt.Sprintf("renamed over %d times", tc.renames), func(t *testing.T) {
			p := filepath.Join(rootDir, "note.md")
			write(t, p, "first\n")
			r := open(t, rootDir)
			renamed := 0
			r.injectFaults(func(ctx context.Context, op seam.Op, n string) error {
				if op == seam.Opened && n == "note.md" && renamed < tc.renames {
					renamed++
					write(t, p+".new", "second\n")
					if err := os.Rename(p+".new", p); err != nil {
						t.Error(err)
					}
				}
				return nil
			})
			data, err := r.ReadNote(context.Background(), "note.md")
			if tc.reason != nil {
				if !errors.Is(err, tc.reason) {
					t.Fatalf("ReadNote of a note renamed over after every open = %q, %v; want %v", data, err, tc.reason)
				}
				return
			}
			if err != nil || string(data) != tc.want {
				t.Fatalf("ReadNote of a note renamed over once = %q, %v; want %q", data, err, tc.want)
			}
		})
	}
}

// TestSwappedAfterWalk: a read of a Note from a walk skips the second
// lookup of its name only when it opens the very file the walk saw. Here
// the listed note is replaced, between the walk and the open, by a hard link
// to a file outside the root, and that link is removed right after the
// open, so the opened file has one link; the read must still be refused.
func TestSwappedAfterWalk(t *testing.T) {
	for _, name := range []string{"note.md", "sub/note.md"} {
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			rootDir := filepath.Join(base, "root")
			secret := filepath.Join(base, "secret.md")
			write(t, secret, outsideMarker+"\n")
			p := filepath.Join(rootDir, filepath.FromSlash(name))
			write(t, p, "an ordinary note of some length\n")
			r := open(t, rootDir)
			listing, err := r.Walk(context.Background())
			if err != nil || len(listing.Notes) != 1 {
				t.Fatalf("Walk = %+v, %v; want the one note", listing, err)
			}
			r.injectFaults(func(ctx context.Context, op seam.Op, n string) error {
				switch {
				case op == seam.ReadFile && n == name:
					if err := os.Link(secret, p+".tmp"); err != nil {
						t.Error(err)
					}
					if err := os.Rename(p+".tmp", p); err != nil {
						t.Error(err)
					}
				case op == seam.Opened && n == name:
					if err := os.Remove(p); err != nil {
						t.Error(err)
					}
				}
				return nil
			})
			rd := r.NewReader()
			defer rd.Close()
			data, _, err := rd.Read(context.Background(), listing.Notes[0], nil)
			if err == nil || strings.Contains(string(data), outsideMarker) {
				t.Fatalf("Read(%q) = %q, %v; want a refusal", name, data, err)
			}
		})
	}
}

// A deadline that ends a walk while it lists a directory ends the walk with
// the context's error: it is not the directory's fault, so neither the root
// nor a folder is reported as unreadable.
func TestWalkEndedWhileListing(t *testing.T) {
	for _, dir := range []string{".", "sub"} {
		t.Run(dir, func(t *testing.T) {
			_, rootDir := fixture(t)
			r := open(t, rootDir)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r.injectFaults(func(_ context.Context, op seam.Op, name string) error {
				if op == seam.ListDir && name == dir {
					cancel()
				}
				return nil
			})
			// walk, not Walk: Walk's wait may return the context's error
			// before the walk itself ends, whatever the walk would say.
			listing, err := r.walk(ctx, func(Note) {})
			if !errors.Is(err, context.Canceled) || errors.Is(err, errUnreadable) {
				t.Errorf("walk ended at %q's listing = %+v, %v; want context.Canceled", dir, listing, err)
			}
		})
	}
}
