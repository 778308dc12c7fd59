package boundary

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"practice-notes/boundary/seam"
)

// TestReadOnWalkLstat reads notes the way a search does, with the Note of
// a walk, where every note counts as changed long ago (a hot window of
// 1 ns), so each is read before its fstat checks it against the walk's
// lstat. Each case changes the note between the walk and the check: the
// read must give what the note holds after the change, or refuse it, and
// never a byte of a file outside the root.
func TestReadOnWalkLstat(t *testing.T) {
	const (
		before = "the note as the walk saw it\n"
		after  = "THE NOTE AS IT NOW STANDS!!\n" // the same length
	)
	if len(before) != len(after) {
		t.Fatal("before and after differ in length")
	}
	type change struct {
		op seam.Op // when: seam.ReadFile before the open, seam.Opened after it
		do func(t *testing.T, p, secret string)
	}
	rewrite := func(t *testing.T, p, _ string) { write(t, p, after) }
	tests := []struct {
		name    string
		changes []change
		want    string // what the read gives, or "" for a refusal
		reason  error
	}{
		{name: "unchanged", want: before},
		{name: "rewritten before the open", changes: []change{{seam.ReadFile, rewrite}}, want: after},
		{name: "rewritten after the open", changes: []change{{seam.Opened, rewrite}}, want: after},
		{name: "grown past the limit after the open", changes: []change{{seam.Opened, func(t *testing.T, p, _ string) {
			write(t, p, strings.Repeat("x", MaxFileSize+1))
		}}}, reason: errTooLarge},
		{name: "swapped for a FIFO before the open", changes: []change{{seam.ReadFile, func(t *testing.T, p, _ string) {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}}}, reason: errNotRegular},
		{name: "swapped for a hard link to an outside file, removed after the open", changes: []change{
			{seam.ReadFile, func(t *testing.T, p, secret string) {
				if err := os.Link(secret, p+".tmp"); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(p+".tmp", p); err != nil {
					t.Fatal(err)
				}
			}},
			{seam.Opened, func(t *testing.T, p, _ string) {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
			}},
		}, reason: ErrNotFound},
	}
	for _, tc := range tests {
		for _, name := range []string{"note.md", "sub/note.md"} {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				base := t.TempDir()
				rootDir := filepath.Join(base, "root")
				secret := filepath.Join(base, "secret.md")
				write(t, secret, outsideMarker+"\n")
				p := filepath.Join(rootDir, filepath.FromSlash(name))
				write(t, p, before)
				r, err := Open(rootDir, seam.Options{Hot: time.Nanosecond})
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				listing, err := r.Walk(context.Background())
				if err != nil || len(listing.Notes) != 1 {
					t.Fatalf("Walk = %+v, %v; want the one note", listing, err)
				}
				r.injectFaults(func(_ context.Context, op seam.Op, n string) error {
					for _, c := range tc.changes {
						if op == c.op && n == name {
							c.do(t, p, secret)
						}
					}
					return nil
				})
				rd := r.NewReader()
				defer rd.Close()
				data, _, err := rd.Read(context.Background(), listing.Notes[0], make([]byte, 0, MaxFileSize+1))
				if strings.Contains(string(data), outsideMarker) {
					t.Fatalf("Read = %q: a byte from outside the root", data)
				}
				if tc.reason != nil {
					var be *Error
					if !errors.As(err, &be) || !errors.Is(be.Reason, tc.reason) {
						t.Fatalf("Read = %q, %v; want a refusal: %v", data, err, tc.reason)
					}
					return
				}
				if err != nil || string(data) != tc.want {
					t.Fatalf("Read = %q, %v; want %q", data, err, tc.want)
				}
			})
		}
	}
}
