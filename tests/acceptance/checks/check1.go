package checks

var check1 = &Check{
	ID:       "1",
	Section:  SectionAcceptance,
	Title:    "sign-in returns the exact N2 passage from sample-notes.md",
	Hint:     "Return the N2 paragraph byte-for-byte (split at blank lines, no reflowing or trimming inside) and name sample-notes.md as its source.",
	Fixtures: []string{"sample-notes.md"},
}
