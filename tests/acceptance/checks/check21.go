package checks

var check21 = &Check{
	ID:       "21",
	Section:  SectionBoundary,
	Title:    "file contents are data: a note that gives orders changes no tool and pulls in no outside file",
	Hint:     "Return note text as data only: never act on it, expand include directives or change the tool list because of it.",
	Fixtures: []string{"include-target.md", "instructions-note.md"},
}
