package boundary

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	const settle = 2 * time.Second // not the writeback window: tests cannot wait a minute
	r.settle = settle
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

// TestWritebackSettle: a note is given a Stamp only once its times are
// older than the kernel's writeback window, read from its settings, with a
// margin: at least a minute, so a note whose times are seconds old is read
// afresh, whatever it holds (see Stamp).
func TestWritebackSettle(t *testing.T) {
	cs := func(name string) time.Duration {
		data, err := os.ReadFile("/proc/sys/vm/" + name)
		if err != nil {
			t.Skipf("SKIP: cannot read the kernel's writeback settings: %v", err)
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		return time.Duration(n) * 10 * time.Millisecond
	}
	expire, every := cs("dirty_expire_centisecs"), cs("dirty_writeback_centisecs")
	got := writebackSettle()
	switch {
	case every == 0 && got != 0:
		t.Errorf("writebackSettle() = %v with periodic writeback turned off; want 0, no Stamps", got)
	case every != 0 && (got < time.Minute || got < 2*(expire+every)):
		t.Errorf("writebackSettle() = %v; want at least a minute and twice %v + %v", got, expire, every)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.md"), "a note\n")
	r := open(t, dir)
	if !r.mount.stamps {
		t.Skip("SKIP: the temporary folder is on a file system whose times are not trusted, where no Stamp is given")
	}
	if r.settle != got {
		t.Errorf("a root waits %v for a Stamp; want the writeback window, %v", r.settle, got)
	}
	time.Sleep(2*time.Second + 200*time.Millisecond) // more than a timestamp tick, less than the window
	listing, err := r.Walk(context.Background())
	if err != nil || len(listing.Notes) != 1 {
		t.Fatalf("Walk: %v, %+v", err, listing)
	}
	if st := listing.Notes[0].Stamp(); st != (Stamp{}) {
		t.Errorf("a note written 2 s ago has the Stamp %+v; want none before the writeback window, %v", st, got)
	}
}
