package boundary

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"practice-notes/boundary/fusetest"
	"practice-notes/boundary/seam"
)

// A read that blocks in the kernel for ever, on a FUSE mount that never
// answers it, is abandoned at the caller's deadline: the caller gets
// ErrNotInTime on time, the stuck read is counted, other notes are read
// meanwhile, and past maxAbandoned stuck reads no more are started until
// the file system answers again.
func TestStuckReadIsAbandoned(t *testing.T) {
	if !fusetest.InPrivateMountNamespace(t) {
		return
	}
	fs := fusetest.Mount(t, map[string]string{
		"a.md":       "alpha\n",
		"stuck.md":   "never read\n",
		"sub/b.md":   "beta\n",
		"sub/st2.md": "never read either\n",
	}, func(name string) bool { return name == "stuck.md" || name == "sub/st2.md" })
	r := open(t, fs.Dir)
	listing, err := r.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(listing.Notes) != 4 {
		t.Fatalf("Walk of the FUSE root: %+v", listing)
	}

	readBy := func(name string, d time.Duration) (data []byte, took time.Duration, err error) {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		start := time.Now()
		data, err = r.ReadNote(ctx, name)
		return data, time.Since(start), err
	}
	data, took, err := readBy("stuck.md", 200*time.Millisecond)
	if !errors.Is(err, ErrNotInTime) || !errors.Is(err, context.DeadlineExceeded) || data != nil || took > 2*time.Second {
		t.Fatalf("ReadNote(stuck.md) = %q, %v after %v; want %v at its 200ms deadline", data, err, took, ErrNotInTime)
	}
	if n := r.abandoned.Load(); n != 1 {
		t.Errorf("%d reads counted as abandoned; want 1", n)
	}
	if data, _, err := readBy("sub/b.md", 5*time.Second); err != nil || string(data) != "beta\n" {
		t.Errorf("ReadNote(sub/b.md) with a read stuck = %q, %v", data, err)
	}

	// A Reader abandons its stuck read too, and reads on with a new
	// goroutine.
	rd := r.NewReader()
	defer rd.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	start := time.Now()
	data, _, err = rd.Read(ctx, Note{Name: "stuck.md"}, make([]byte, 0, MaxFileSize+1))
	cancel()
	if !errors.Is(err, ErrNotInTime) || data != nil || time.Since(start) > 2*time.Second {
		t.Fatalf("Reader.Read(stuck.md) = %q, %v after %v; want %v at its deadline", data, err, time.Since(start), ErrNotInTime)
	}
	if n := r.abandoned.Load(); n != 2 {
		t.Errorf("%d reads counted as abandoned; want 2", n)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	data, _, err = rd.Read(ctx, Note{Name: "a.md"}, make([]byte, 0, MaxFileSize+1))
	cancel()
	if err != nil || string(data) != "alpha\n" {
		t.Errorf("Reader.Read(a.md) after an abandoned read = %q, %v", data, err)
	}

	// Fill the count of abandoned reads; the next read is refused at once.
	var wg sync.WaitGroup
	for range maxAbandoned {
		wg.Go(func() { readBy("sub/st2.md", 300*time.Millisecond) })
	}
	wg.Wait()
	if n := r.abandoned.Load(); n < maxAbandoned {
		t.Fatalf("%d reads counted as abandoned; want at least %d", n, maxAbandoned)
	}
	if data, took, err := readBy("a.md", 5*time.Second); !errors.Is(err, ErrNotInTime) || took > time.Second {
		t.Errorf("ReadNote(a.md) past the abandoned limit = %q, %v after %v; want %v at once", data, err, took, ErrNotInTime)
	}

	// Once the file system answers, the abandoned reads end and reads go on.
	fs.Release()
	deadline := time.Now().Add(10 * time.Second)
	for r.abandoned.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := r.abandoned.Load(); n != 0 {
		t.Fatalf("%d abandoned reads still counted after the file system answered", n)
	}
	if data, _, err := readBy("a.md", 5*time.Second); err != nil || string(data) != "alpha\n" {
		t.Errorf("ReadNote(a.md) after release = %q, %v", data, err)
	}
}

// A walk stuck in the file system is abandoned at the deadline too. The
// fault seam stands in for a directory listing that never returns.
func TestStuckWalkIsAbandoned(t *testing.T) {
	_, rootDir := fixture(t)
	r := open(t, rootDir)
	release := make(chan struct{})
	r.injectFaults(func(ctx context.Context, op seam.Op, name string) error {
		if op == seam.ListDir {
			<-release // ignores ctx, as a system call would
		}
		return nil
	})
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	listing, err := r.Walk(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrNotInTime) || listing != nil || time.Since(start) > 2*time.Second {
		t.Fatalf("stuck Walk = %+v, %v after %v; want %v at the deadline", listing, err, time.Since(start), context.DeadlineExceeded)
	}
}
