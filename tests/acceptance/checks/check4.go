package checks

var check4 = &Check{
	ID:       "4",
	Section:  SectionAcceptance,
	Title:    "../outside.md and an absolute path outside the root are rejected",
	Hint:     "Resolve every path against the root and refuse absolute paths and any path that leaves it (check after cleaning, with a path separator).",
	Fixtures: []string{"outside.md", "absolute-secret.md"},
}
