package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"practice-notes/boundary"
	"practice-notes/boundary/seam"
)

// TestScanWorkerPanicReachesCaller makes the read of one note panic (through
// the boundary's fault seam, seam.Options.Faults) while notes are searched on
// worker goroutines. The panic must come out of Run on the caller's
// goroutine, where the server recovers it; left on a worker it would end the
// process.
func TestScanWorkerPanicReachesCaller(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4)) // force the parallel path
	dir := t.TempDir()
	for i := range 20 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%02d.md", i)), []byte("text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := boundary.Open(dir, seam.Options{Faults: func(ctx context.Context, op seam.Op, name string) error {
		if op == seam.ReadFile && name == "n07.md" {
			panic("injected panic")
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	q, err := ParseQuery("absent")
	if err != nil {
		t.Fatal(err)
	}
	got := func() (v any) {
		defer func() { v = recover() }()
		New(root, Options{}).Run(context.Background(), q)
		return nil
	}()
	if s, _ := got.(string); !strings.Contains(s, "injected panic") {
		t.Fatalf("Run's caller recovered %v; want the injected panic", got)
	}
}
