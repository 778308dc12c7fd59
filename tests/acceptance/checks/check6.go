package checks

var check6 = &Check{
	ID:       "6",
	Section:  SectionAcceptance,
	Title:    "an oversized query and an oversized file produce bounded errors",
	Hint:     "Refuse queries over 200 characters with a clear error, skip files over 100 KB without reading them, return at most 10 passages, and answer every call promptly.",
	Fixtures: []string{"oversized-notes.md", "oversized-accents.md", BoundPhrase},
}
