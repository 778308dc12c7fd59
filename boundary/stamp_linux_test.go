package boundary

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestStamps checks when a note is given a Stamp: not while its times are
// recent, then the same from a walk and from a read, and a new one once it
// is changed, even when its size and modification time are kept.
func TestStamps(t *testing.T) {
	dir := t.TempDir()
	note := filepath.Join(dir, "a.md")
	write(t, note, "first\n")
	r := open(t, dir)
	if !r.mount.stamps {
		t.Skip("the temporary folder is on a file system whose times are not trusted, where no Stamp is given")
	}
	stamps := func() (walked, read Stamp) {
		t.Helper()
		listing, err := r.Walk(context.Background())
		if err != nil || len(listing.Notes) != 1 {
			t.Fatalf("Walk: %v, %+v", err, listing)
		}
		rd := r.NewReader()
		defer rd.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, read, err = rd.Read(ctx, listing.Notes[0], nil); err != nil {
			t.Fatal(err)
		}
		return listing.Notes[0].Stamp(), read
	}
	if w, rd := stamps(); w != (Stamp{}) || rd != (Stamp{}) {
		t.Fatalf("a note written just now has Stamps %+v and %+v", w, rd)
	}
	time.Sleep(settle + 200*time.Millisecond)
	w1, rd1 := stamps()
	if w1 == (Stamp{}) || w1 != rd1 {
		t.Fatalf("settled note: walk Stamp %+v, read Stamp %+v", w1, rd1)
	}
	fi, err := os.Stat(note)
	if err != nil {
		t.Fatal(err)
	}
	write(t, note, "again\n")
	if err := os.Chtimes(note, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(settle + 200*time.Millisecond)
	if w2, _ := stamps(); w2 == (Stamp{}) || w2 == w1 {
		t.Errorf("rewritten note, same size and modification time: Stamp %+v, before %+v", w2, w1)
	}
}
