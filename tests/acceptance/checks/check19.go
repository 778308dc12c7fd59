package checks

var check19 = &Check{
	ID:       "19",
	Section:  SectionBoundary,
	Title:    "a hard link to an outside file is not served (warn only: the specification names only symlinks)",
	Hint:     "Skip regular files with more than one hard link (st_nlink > 1): their content may live outside the root.",
	Fixtures: []string{"hardlinked-outside.md", "shared-note.md"},
	Warns:    true,
}
