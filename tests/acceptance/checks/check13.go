package checks

var check13 = &Check{
	ID:       "13",
	Section:  SectionTool,
	Title:    "no caller-selected root: root and path arguments pointing outside return no outside byte",
	Hint:     "Search only the root given at startup; refuse (or at least ignore) any root, path or directory argument.",
	Fixtures: []string{"caller-root/notes.md"},
}
