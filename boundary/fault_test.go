package boundary

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The fault seam: an error from the hook is taken as the operating system's
// answer, on the one Root it was installed on and no other.
func TestInjectFaults(t *testing.T) {
	_, rootDir := fixture(t)
	write(t, filepath.Join(rootDir, "closed", "inner.md"), "inner\n")
	r := open(t, rootDir)
	var calls []string
	r.InjectFaults(func(_ context.Context, op Op, name string) error {
		calls = append(calls, op.String()+" "+name)
		switch {
		case op == ReadFile && name == "a.md":
			return &fs.PathError{Op: "open", Path: "/INJECTED/a.md", Err: fs.ErrPermission}
		case op == ReadFile && name == "sub/b.txt":
			return fs.ErrNotExist
		case op == ListDir && name == "closed":
			return fs.ErrPermission
		}
		return nil
	})
	listing, err := r.Walk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := &Listing{
		Notes:   []string{"a.md", "sub/b.txt"},
		Skipped: []Skipped{{"closed", ErrUnreadable}},
	}
	if diff := cmp.Diff(want, listing, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("Walk mismatch (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		name string
		want error
	}{
		{"a.md", ErrUnreadable},
		{"sub/b.txt", ErrNotFound},
	} {
		data, err := r.ReadFile(context.Background(), tt.name)
		if !errors.Is(err, tt.want) || data != nil {
			t.Errorf("ReadFile(%q) = %q, %v; want %v", tt.name, data, err, tt.want)
		}
	}
	slices.Sort(calls) // a directory lists its entries in no set order
	wantCalls := []string{"list .", "list closed", "list sub", "read a.md", "read sub/b.txt"}
	if diff := cmp.Diff(wantCalls, calls); diff != "" {
		t.Errorf("hook calls (-want +got):\n%s", diff)
	}

	// Another Root on the same folder has no hook.
	if _, err := open(t, rootDir).ReadFile(context.Background(), "a.md"); err != nil {
		t.Errorf("a Root without a hook: %v", err)
	}
}
