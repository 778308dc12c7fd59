package search

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"practice-notes/boundary"
	"practice-notes/boundary/fusetest"
)

// loopExt4 makes a 64 MiB ext4 image, attaches it to a free loop device and
// mounts it in a new temporary directory, which it returns; everything is
// undone when the test ends. It is mounted with data=writeback, so that a
// journal commit never writes a note's dirty pages back early: only the
// kernel's flusher does, after the writeback window, and a store into a
// dirty page reliably moves no time in the seconds a test lasts. It must run in a private mount namespace
// (fusetest.InPrivateMountNamespace), and skips the test, with the reason,
// where mkfs.ext4 is missing or the kernel refuses a loop device or the
// mount.
func loopExt4(t *testing.T) string {
	t.Helper()
	mkfs, err := exec.LookPath("mkfs.ext4")
	if err != nil {
		t.Skip("SKIP: mkfs.ext4 is not installed (Debian: apt-get install e2fsprogs), so no ext4 image can be made")
	}
	img := filepath.Join(t.TempDir(), "ext4.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 64<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(mkfs, "-q", "-F", img).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4: %v\n%s", err, out)
	}
	ctl, err := os.OpenFile("/dev/loop-control", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("SKIP: no loop devices here: %v", err)
	}
	defer ctl.Close()
	backing, err := os.OpenFile(img, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer backing.Close()
	var dev string
	for tries := 0; dev == ""; tries++ {
		n, err := unix.IoctlRetInt(int(ctl.Fd()), unix.LOOP_CTL_GET_FREE)
		if err != nil {
			t.Skipf("SKIP: the kernel gives no free loop device: %v", err)
		}
		name := fmt.Sprintf("/dev/loop%d", n)
		loop, err := os.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			t.Skipf("SKIP: cannot open %s: %v", name, err)
		}
		err = unix.IoctlSetInt(int(loop.Fd()), unix.LOOP_SET_FD, int(backing.Fd()))
		if errors.Is(err, syscall.EBUSY) && tries < 10 {
			loop.Close() // taken by another test meanwhile
			continue
		}
		if err != nil {
			loop.Close()
			t.Skipf("SKIP: the kernel refuses to attach a loop device: %v", err)
		}
		t.Cleanup(func() {
			unix.IoctlSetInt(int(loop.Fd()), unix.LOOP_CLR_FD, 0)
			loop.Close()
		})
		dev = name
	}
	dir := t.TempDir()
	if err := syscall.Mount(dev, dir, "ext4", 0, "data=writeback"); err != nil {
		t.Skipf("SKIP: the kernel refuses to mount an ext4 image: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// times returns the modification and change times of name.
func times(t *testing.T, name string) [2]int64 {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat(name, &st); err != nil {
		t.Fatal(err)
	}
	return [2]int64{st.Mtim.Nano(), st.Ctim.Nano()}
}

// sameAsFresh fails the test unless a call with sums answers query as a
// call reading every note does, and that answer holds a passage.
func sameAsFresh(t *testing.T, root *boundary.Root, sums *summaries, when string) {
	t.Helper()
	got := search(t, root, phrase, sums)
	fresh := search(t, root, phrase, nil)
	if len(fresh.Matches) != 1 {
		t.Fatalf("%s: a fresh read finds %d passages; want 1", when, len(fresh.Matches))
	}
	if diff := cmp.Diff(fresh, got); diff != "" {
		t.Errorf("%s: answer with summaries differs from a fresh read (-fresh +got):\n%s", when, diff)
	}
}

const (
	staleBefore = "## N1 · Lamps\n\nThe velvet lanterm is lit.\n"
	staleAfter  = "## N1 · Lamps\n\nThe velvet lantern is lit.\n" // same size
)

// A store through a shared writable map into a page that was already
// dirty when the summary was made moves no time: the kernel sets the times
// on the first write fault after writeback only. With the root's real
// Stamp rule (times older than the writeback window) no summary is made of
// a note whose page may still be dirty, so the long-running server finds
// the new phrase as a fresh one does. With Stamps given two seconds after
// the last write, as before, it did not.
func TestSummariesSeeStoreIntoDirtyPage(t *testing.T) {
	if !fusetest.InPrivateMountNamespace(t) {
		return
	}
	dir := loopExt4(t)
	note := filepath.Join(dir, "lamps.md")
	writeFile(t, note, staleBefore)
	writeFile(t, filepath.Join(dir, "other.md"), "## N2 · Other\n\nNothing here.\n")
	m := dirtyMapped(t, note)

	root, err := boundary.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	sums := newSummaries()
	defer sums.Close()
	if res := search(t, root, phrase, sums); len(res.Matches) != 0 {
		t.Fatalf("before the store: %+v", res)
	}
	waitBuilt(t, sums)
	stamped := times(t, note)
	at := strings.Index(staleBefore, "lanterm")
	copy(m[at:], "lantern") // into the dirty page: no fault, no time set
	if times(t, note) != stamped {
		t.Fatal("the page was written back before the store, which then set the times: the test would show nothing")
	}
	sameAsFresh(t, root, sums, "after a store into a dirty page")
}

// A write(2) sets the times before it copies its data; when the copy is
// slow (its source a mapping of a file on a file system slow to answer,
// here FUSE), a summary made meanwhile is made from the old bytes under
// the final times. With the real Stamp rule no summary is made of a note
// whose times are younger than the writeback window, so the write is seen
// once it ends.
func TestSummariesSeeSlowWrite(t *testing.T) {
	if !fusetest.InPrivateMountNamespace(t) {
		return
	}
	dir := loopExt4(t)
	slow := fusetest.Mount(t, map[string]string{"src": staleAfter}, func(name string) bool { return name == "src" })
	note := filepath.Join(dir, "lamps.md")
	writeFile(t, note, staleBefore)
	writeFile(t, filepath.Join(dir, "other.md"), "## N2 · Other\n\nNothing here.\n")
	src, err := os.Open(filepath.Join(slow.Dir, "src"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m, err := syscall.Mmap(int(src.Fd()), 0, len(staleAfter), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Skipf("SKIP: cannot map a file of the FUSE file system: %v", err)
	}
	defer syscall.Munmap(m)
	dst, err := os.OpenFile(note, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	before := times(t, note)
	time.Sleep(20 * time.Millisecond) // a later tick for the write's times
	wrote := make(chan error, 1)
	go func() {
		// Sets the times, then waits for the source's page from FUSE.
		_, err := syscall.Pwrite(int(dst.Fd()), m, 0)
		wrote <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); times(t, note) == before; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			slow.Answer()
			t.Fatal("the write set no time within 5s")
		}
	}
	time.Sleep(settleTime) // longer than the 2 s a note once needed to settle

	root, err := boundary.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	sums := newSummaries()
	defer sums.Close()
	if res := search(t, root, phrase, sums); len(res.Matches) != 0 {
		t.Fatalf("during the write: %+v", res)
	}
	waitBuilt(t, sums)
	slow.Answer()
	if err := <-wrote; err != nil {
		t.Fatalf("the slow write: %v", err)
	}
	sameAsFresh(t, root, sums, "after the slow write ended")
}

// Changes no Stamp shows are bounded in time: every summary is checked
// against a fresh read between calls once it is recheck old, and never
// used once it is maxAge old. The change here is a store into a page
// already dirty, under a root whose Stamps, as these tests need, come long
// before the writeback window (testSettle), so the Stamp misses it.
func TestSummariesCheckedOnSchedule(t *testing.T) {
	if !fusetest.InPrivateMountNamespace(t) {
		return
	}
	for _, by := range []string{"the check between calls", "the age limit"} {
		t.Run(by, func(t *testing.T) {
			t.Parallel()
			dir := loopExt4(t)
			note := filepath.Join(dir, "lamps.md")
			writeFile(t, note, staleBefore)
			for i := range 4 {
				writeFile(t, filepath.Join(dir, fmt.Sprintf("other%d.md", i)), "## N2 · Other\n\nNothing here.\n")
			}
			m := dirtyMapped(t, note)
			root, sums, reads := cachedRoot(t, dir)
			const recheck, maxAge = 1500 * time.Millisecond, 3 * time.Second
			sums.recheck, sums.maxAge, sums.batch = recheck, maxAge, 2
			if by == "the age limit" {
				sums.recheck = time.Hour // never checked between calls
			}
			if res := search(t, root, phrase, sums); len(res.Matches) != 0 {
				t.Fatalf("before the store: %+v", res)
			}
			waitBuilt(t, sums)
			stamped := times(t, note)
			copy(m[strings.Index(staleBefore, "lanterm"):], "lantern")
			if times(t, note) != stamped {
				t.Fatal("the page was written back before the store, which then set the times: no change here goes unseen by the Stamp")
			}
			changed := time.Now()
			reads.Store(0)
			search(t, root, phrase, sums) // may miss it: the Stamp is the same
			if by == "the check between calls" {
				// Calls go on; each lets at most batch summaries be checked.
				time.Sleep(recheck)
				for range 3 {
					search(t, root, phrase, sums)
					waitBuilt(t, sums)
				}
				if time.Since(changed) >= maxAge {
					t.Fatalf("the calls took longer than maxAge (%v): the age limit, not the check, would be tested", maxAge)
				}
			} else {
				time.Sleep(maxAge - time.Since(changed) + 100*time.Millisecond)
			}
			sameAsFresh(t, root, sums, "after "+by)
			if by == "the check between calls" {
				// Every summary was read again, not only the changed one.
				sums.mu.Lock()
				sums.notes.each(func(sm *summary) {
					if sums.epoch.Add(sm.read).Before(changed) {
						t.Errorf("the summary of %s was not checked since the change", sums.notes.nameOf(sm))
					}
				})
				sums.mu.Unlock()
			}
		})
	}
}

// dirtyMapped writes note back, maps it shared and writable, and stores
// the byte it already holds at offset 0: the write fault sets the times
// and dirties the page, so that a later store through the map moves no
// time. It waits out the settle window and returns the mapping.
func dirtyMapped(t *testing.T, note string) []byte {
	t.Helper()
	f, err := os.OpenFile(note, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := f.Sync(); err != nil { // written back: the next store faults
		t.Fatal(err)
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, len(staleBefore), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	m[0] = '#'
	time.Sleep(settleTime)
	return m
}
