package checks

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScheduleRunsEveryCheckOnce: every check but those that judge the
// whole run is probed in exactly one stage, in report order within it.
func TestScheduleRunsEveryCheckOnce(t *testing.T) {
	seen := map[*Check]int{}
	for _, st := range Schedule() {
		for i, c := range st.Checks {
			seen[c]++
			if c.Process != st.Kind {
				t.Errorf("check %s runs in a stage of kind %d, not its own %d", c.ID, st.Kind, c.Process)
			}
			if i > 0 && slices.Index(All(), c) < slices.Index(All(), st.Checks[i-1]) {
				t.Errorf("check %s runs after check %s in its stage, against report order", c.ID, st.Checks[i-1].ID)
			}
		}
	}
	for _, c := range All() {
		want := 1
		if c.Process == RunWide {
			want = 0
		}
		if seen[c] != want {
			t.Errorf("check %s is in %d stages, want %d", c.ID, seen[c], want)
		}
	}
}

// TestScheduleOrder: the search checks come first, check 8 has a
// process of its own before the protocol session, and the processes
// with fixtures planted around them come last, one check each.
func TestScheduleOrder(t *testing.T) {
	st := Schedule()
	if len(st) < 3 || st[0].Kind != Shared || st[0].Checks[0] != check1 {
		t.Fatalf("the first stage is not the shared process of check 1")
	}
	if st[1].Kind != OwnProcess || len(st[1].Checks) != 1 || st[1].Checks[0] != Integration() {
		t.Errorf("the second stage is not check 8's own process")
	}
	if st[2].Kind != Raw {
		t.Errorf("the third stage is not the protocol session")
	}
	planted := false
	for _, s := range st {
		switch {
		case s.Kind == WithPlanting:
			planted = true
			if len(s.Checks) != 1 {
				t.Errorf("a process with fixtures planted around it runs %d checks", len(s.Checks))
			}
		case planted:
			t.Errorf("a stage of kind %d runs after a process with fixtures planted around it", s.Kind)
		}
	}
}

// TestScheduleKeepsRequirements: a check runs after every check it
// requires, each of which names the Result it hands on.
func TestScheduleKeepsRequirements(t *testing.T) {
	order := map[*Check]int{}
	n := 0
	for _, st := range Schedule() {
		for _, c := range st.Checks {
			order[c] = n
			n++
		}
	}
	for _, c := range All() {
		for _, req := range c.Requires {
			if req.Result == "" {
				t.Errorf("check %s requires check %s, which hands on no Result", c.ID, req.ID)
			}
			if order[req] >= order[c] {
				t.Errorf("check %s requires check %s, which runs after it", c.ID, req.ID)
			}
		}
	}
}

// TestDeriveSchedule: a shared process goes on past a run-wide check and
// stops at a check of another kind; planted processes run last.
func TestDeriveSchedule(t *testing.T) {
	c := func(id string, k StageKind) *Check { return &Check{ID: id, Process: k} }
	got := deriveSchedule([]*Check{c("a", Shared), c("t", WithPlanting), c("w", RunWide), c("b", Shared),
		c("o", OwnProcess), c("p", OwnProcess), c("r", Raw), c("s", Raw), c("d", Shared)})
	var kinds []StageKind
	var ids [][]string
	for _, st := range got {
		kinds = append(kinds, st.Kind)
		var s []string
		for _, c := range st.Checks {
			s = append(s, c.ID)
		}
		ids = append(ids, s)
	}
	if diff := cmp.Diff([][]string{{"a", "b"}, {"o"}, {"p"}, {"r", "s"}, {"d"}, {"t"}}, ids); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]StageKind{Shared, OwnProcess, OwnProcess, Raw, Shared, WithPlanting}, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
}
