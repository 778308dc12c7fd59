package boundary

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

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
	seed := []string{"a-seed.md", "zz-seed.md"} // names read before
	tests := []struct {
		k     int
		seeds [][]string
		want  []string
		total int
	}{
		{k: 1, want: all[:1], total: n},
		{k: 100, want: all[:100], total: n},
		{k: 1000, want: all[:1000], total: n},
		{k: 100, seeds: [][]string{seed}, want: append([]string{"a-seed.md"}, all[:99]...), total: n + 2},
		{k: n + 5, seeds: [][]string{seed}, want: slices.Concat([]string{"a-seed.md"}, all, []string{"zz-seed.md"}), total: n + 2},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("k=%d seeds=%d", tc.k, len(tc.seeds)), func(t *testing.T) {
			f, err := os.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			d, err := newDirReader(f)
			if err != nil {
				t.Fatal(err)
			}
			got, total, err := firstNames(d, tc.k, tc.seeds...)
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
