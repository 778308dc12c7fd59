package checks

var check5 = &Check{
	ID:       "5",
	Section:  SectionAcceptance,
	Title:    "a symlink inside the root pointing outside is rejected, no leaked bytes",
	Hint:     "Do not follow symlinks (lstat each entry, open with O_NOFOLLOW), or resolve them and refuse targets outside the root.",
	Fixtures: []string{"escape-target.md", "escape-link.md"},
}
