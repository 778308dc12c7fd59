package checks

var check22 = &Check{
	ID:       "22",
	Section:  SectionBoundary,
	Title:    "an unreadable file is reported honestly without absolute paths, and the search still answers",
	Hint:     "Catch permission errors per file, skip the file with a short reason, and never put absolute paths in replies.",
	Fixtures: []string{"locked-note.md"},
}
