package boundary

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// TestFirstNamesHoldsAtMostK reads the names of a real folder of more
// entries than a cut keeps, in the order the file system lists them, and
// checks that firstNames returns the first k in byte order while holding
// no more than k names: the storage it keeps them in never grows past k,
// whatever the folder's size, which is what bounds the memory of a walk
// cut in byte order (one folder of 100,000 entries held all 100,000
// names before).
func TestFirstNamesHoldsAtMostK(t *testing.T) {
	dir := t.TempDir()
	const n = 2500
	var all []string
	for i := range n {
		all = append(all, fmt.Sprintf("n%05d.md", i))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(n, func(i, j int) { all[i], all[j] = all[j], all[i] })
	for _, name := range all {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	slices.Sort(all)
	tests := []struct {
		k     int
		want  []string
		total int
	}{
		{k: 1, want: all[:1], total: n},
		{k: 100, want: all[:100], total: n},
		{k: 1000, want: all[:1000], total: n},
		{k: n - 1, want: all[:n-1], total: n},
		{k: n, want: all, total: n},
		{k: 10 * n, want: all, total: n},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("k=%d", tc.k), func(t *testing.T) {
			f, err := os.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			d, err := newDirReader(nil, ".", f)
			if err != nil {
				t.Fatal(err)
			}
			defer d.close()
			got, total, err := firstNames(d, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("names kept (-want +got):\n%s", diff)
			}
			if total != tc.total {
				t.Errorf("names read = %d; want %d", total, tc.total)
			}
			if cap(got) > tc.k {
				t.Errorf("names held in storage for %d; want at most k = %d", cap(got), tc.k)
			}
		})
	}
}

// TestItemSize pins the size of what a walk holds for each entry of a
// directory while it lists it: 50,000 of them for one folder of 100,000
// notes, beside the summaries, under the server's memory bound.
func TestItemSize(t *testing.T) {
	if got := unsafe.Sizeof(item{}); got > 64 {
		t.Errorf("an item takes %d bytes; want at most 64", got)
	}
}
