package checks

var check16 = &Check{
	ID:      "16",
	Section: SectionTool,
	Title:   "nothing is written into HOME or TMPDIR (fresh empty folders, checked after every process)",
	Hint:    "Do not write history, caches or logs anywhere; log to stderr only.",
}
