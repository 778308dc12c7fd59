package checks

var check7 = &Check{
	ID:      "7",
	Section: SectionAcceptance,
	Title:   "checksums and mtimes of every fixture are unchanged, no file created or removed",
	Hint:    "Open notes read-only and write nothing: no caches, logs or history files inside or outside the root.",
}
