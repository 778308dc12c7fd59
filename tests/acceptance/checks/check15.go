package checks

var check15 = &Check{
	ID:      "15",
	Section: SectionTool,
	Title:   "the same call twice gives the same answer",
	Hint:    "Make results deterministic: walk files in sorted order and keep no state between calls.",
}
