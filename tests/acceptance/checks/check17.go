package checks

var check17 = &Check{
	ID:       "17",
	Section:  SectionBoundary,
	Title:    "a symlink into a sibling folder whose name starts with the root's (root-old/) is rejected",
	Hint:     "Compare resolved paths with the root plus a separator (or use filepath.Rel / os.path.commonpath), never a bare startswith.",
	Fixtures: []string{"private-notes.md", "old-notes", "archive.md"},
}
