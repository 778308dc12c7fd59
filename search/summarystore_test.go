package search

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSummaryStoreAgreesWithAMap: after any sequence of puts and deletes,
// including ones that grow the table, refill freed records and filters and
// compact the arenas, the store holds exactly what a map would, each
// summary with its own filter.
func TestSummaryStoreAgreesWithAMap(t *testing.T) {
	type entry struct {
		Gen    uint64
		Filter []uint64
	}
	for _, tc := range []struct {
		name  string
		names int // distinct names drawn from
		ops   int
	}{
		{"few names, many changes", 40, 20000},
		{"many names, growth and compaction", 5000, 60000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tc.names)))
			st := newSummaryStore()
			want := map[string]entry{}
			for op := range tc.ops {
				name := fmt.Sprintf("d%d/note-%05d.md", rng.IntN(7), rng.IntN(tc.names))
				if rng.IntN(3) == 0 {
					_, had := want[name]
					if got := st.delete(name); got != had {
						t.Fatalf("op %d: delete(%q) = %v; the map had it: %v", op, name, got, had)
					}
					delete(want, name)
					continue
				}
				f := make(filter, 8<<rng.IntN(5))
				for i := range f {
					f[i] = rng.Uint64()
				}
				st.put(name, summary{gen: uint64(op)}, f)
				want[name] = entry{uint64(op), f}
			}
			got := map[string]entry{}
			st.each(func(sm *summary) {
				got[st.nameOf(sm)] = entry{sm.gen, st.filterOf(sm)}
			})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("store differs from the map (-map +store):\n%s", diff)
			}
			if st.len() != len(want) {
				t.Errorf("len() = %d; want %d", st.len(), len(want))
			}
			for name, e := range want {
				sm := st.get(name)
				if sm == nil || sm.gen != e.Gen {
					t.Fatalf("get(%q) = %+v; want gen %d", name, sm, e.Gen)
				}
			}
			if sm := st.get("absent.md"); sm != nil {
				t.Errorf("get of a name never put = %+v; want nil", sm)
			}
		})
	}
}
