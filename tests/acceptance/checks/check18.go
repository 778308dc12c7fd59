package checks

var check18 = &Check{
	ID:       "18",
	Section:  SectionBoundary,
	Title:    "a symlinked directory with an absolute target and a chain of relative links are rejected",
	Hint:     "Check every path component, not only the last: refuse any symlink, or resolve the whole path and refuse targets outside the root.",
	Fixtures: []string{"dir-secret.md", "chain-target.md", "linked-dir", "nested-links/chain-2.md", "chain-1.md"},
}
