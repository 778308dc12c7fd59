package search

import (
	"hash/maphash"
	"time"

	"practice-notes/boundary"
)

// A summaryStore holds summaries by note name in a few flat arrays, with
// no pointer per note: fixed-size records, the names' bytes in one arena,
// the filters' words in another, and an open-addressed table of record
// numbers. Next to a map of pointers to summaries it saves a note's map
// entry, string and two allocations, and the collector has nothing in it
// to scan.
type summaryStore struct {
	seed    maphash.Seed
	slots   []int32 // record number + 1, 0 when empty; linear probing
	recs    []summary
	names   []byte
	filters []uint64
	free    []int32 // records not in use
	// freeFilters holds the offsets of unused filters by their length's
	// log2: filters of one length replace each other in place.
	freeFilters [16][]uint32
	n           int
	garbage     int // bytes of names and filters no record uses
}

// A summary is a note's record in a summaryStore.
type summary struct {
	stamp   boundary.Stamp
	read    time.Duration // when the read it was made from began, since the summaries' epoch
	gen     uint64        // the last call whose walk listed the note
	name    uint32        // offset of the name in names
	filter  uint32        // offset of the filter in filters
	hash    uint32        // of the name
	nameLen uint16        // 0: the record is not in use
	words   uint16        // the filter's length
}

// maxSummaryName is the longest name a summary is kept for; a path is
// never this long (PATH_MAX is 4096).
const maxSummaryName = 1<<16 - 1

// summaryBytes is the heap a summary takes besides its filter and name:
// its record, its share of the table (at most 3/4 full) and the arrays'
// room to grow. TestSummariesCapAndMemory measures it.
const summaryBytes = 112

// cost is the heap the summary of a note called name with a filter of
// words words takes, as counted against the budget.
func summaryCost(name string, words int) int {
	return words*8 + len(name) + summaryBytes
}

func newSummaryStore() *summaryStore {
	return &summaryStore{seed: maphash.MakeSeed()}
}

func (st *summaryStore) len() int { return st.n }

func (st *summaryStore) hashOf(name string) uint32 {
	return uint32(maphash.String(st.seed, name))
}

func (st *summaryStore) nameOf(sm *summary) string {
	return string(st.names[sm.name : sm.name+uint32(sm.nameLen)])
}

// find returns the slot of name, or -1.
func (st *summaryStore) find(name string) int {
	if len(st.slots) == 0 {
		return -1
	}
	mask := len(st.slots) - 1
	h := st.hashOf(name)
	for i := int(h) & mask; st.slots[i] != 0; i = (i + 1) & mask {
		sm := &st.recs[st.slots[i]-1]
		if sm.hash == h && int(sm.nameLen) == len(name) && string(st.names[sm.name:sm.name+uint32(sm.nameLen)]) == name {
			return i
		}
	}
	return -1
}

// get returns the summary of the note called name, or nil. It is valid
// until the store next changes.
func (st *summaryStore) get(name string) *summary {
	if i := st.find(name); i >= 0 {
		return &st.recs[st.slots[i]-1]
	}
	return nil
}

// filterOf returns sm's filter, sharing the store's memory.
func (st *summaryStore) filterOf(sm *summary) filter {
	return filter(st.filters[sm.filter : sm.filter+uint32(sm.words) : sm.filter+uint32(sm.words)])
}

// put stores sm, made for the note called name with filter f, in place of
// any summary of that note.
func (st *summaryStore) put(name string, sm summary, f filter) {
	st.delete(name)
	if (st.n+1)*4 > len(st.slots)*3 {
		st.grow()
	}
	sm.hash = st.hashOf(name)
	sm.nameLen = uint16(len(name))
	sm.words = uint16(len(f))
	sm.name = uint32(len(st.names))
	st.names = append(st.names, name...)
	class := len(f) >> 3 // filters have 8 << k words
	if free := st.freeFilters[log2(class)]; len(free) > 0 {
		sm.filter = free[len(free)-1]
		st.freeFilters[log2(class)] = free[:len(free)-1]
		st.garbage -= len(f) * 8
		copy(st.filters[sm.filter:], f)
	} else {
		sm.filter = uint32(len(st.filters))
		st.filters = append(st.filters, f...)
	}
	var r int32
	if len(st.free) > 0 {
		r = st.free[len(st.free)-1]
		st.free = st.free[:len(st.free)-1]
		st.recs[r] = sm
	} else {
		r = int32(len(st.recs))
		st.recs = append(st.recs, sm)
	}
	st.insert(r)
	st.n++
}

func log2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

// insert puts record r in the table, which has room.
func (st *summaryStore) insert(r int32) {
	mask := len(st.slots) - 1
	i := int(st.recs[r].hash) & mask
	for st.slots[i] != 0 {
		i = (i + 1) & mask
	}
	st.slots[i] = r + 1
}

func (st *summaryStore) grow() {
	old := st.slots
	st.slots = make([]int32, max(64, 2*len(old)))
	for _, r := range old {
		if r != 0 {
			st.insert(r - 1)
		}
	}
}

// delete forgets the summary of the note called name, if there is one,
// and reports whether there was.
func (st *summaryStore) delete(name string) bool {
	i := st.find(name)
	if i < 0 {
		return false
	}
	r := st.slots[i] - 1
	sm := &st.recs[r]
	st.garbage += int(sm.nameLen) + int(sm.words)*8
	class := log2(int(sm.words) >> 3)
	st.freeFilters[class] = append(st.freeFilters[class], sm.filter)
	*sm = summary{}
	st.free = append(st.free, r)
	st.n--
	// Close the gap, so that every probe still reaches its record.
	mask := len(st.slots) - 1
	st.slots[i] = 0
	for k := (i + 1) & mask; st.slots[k] != 0; k = (k + 1) & mask {
		home := int(st.recs[st.slots[k]-1].hash) & mask
		// The record at k may move to the gap at i unless its home lies
		// cyclically in (i, k].
		if (k > i && (home <= i || home > k)) || (k < i && home <= i && home > k) {
			st.slots[i], st.slots[k] = st.slots[k], 0
			i = k
		}
	}
	if st.garbage > 64<<10 && st.garbage*2 > len(st.names)+8*len(st.filters) {
		st.compact()
	}
	return true
}

// compact copies the names and filters in use into arrays of their own
// size, dropping the ones no record uses.
func (st *summaryStore) compact() {
	names := make([]byte, 0, len(st.names)-min(len(st.names), st.garbage))
	var words int
	for i := range st.recs {
		words += int(st.recs[i].words)
	}
	filters := make([]uint64, 0, words)
	for i := range st.recs {
		sm := &st.recs[i]
		if sm.nameLen == 0 {
			continue
		}
		n, f := uint32(len(names)), uint32(len(filters))
		names = append(names, st.names[sm.name:sm.name+uint32(sm.nameLen)]...)
		filters = append(filters, st.filters[sm.filter:sm.filter+uint32(sm.words)]...)
		sm.name, sm.filter = n, f
	}
	st.names, st.filters, st.garbage = names, filters, 0
	st.freeFilters = [16][]uint32{}
}

// each calls fn with every summary stored; fn may change the summary but
// not the store.
func (st *summaryStore) each(fn func(sm *summary)) {
	for i := range st.recs {
		if sm := &st.recs[i]; sm.nameLen != 0 {
			fn(sm)
		}
	}
}
