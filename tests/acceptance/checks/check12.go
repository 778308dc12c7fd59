package checks

var check12 = &Check{
	ID:      "12",
	Section: SectionTool,
	Title:   "empty, whitespace-only, missing and non-string queries are refused or find nothing",
	Hint:    "Refuse a query that is missing, not a string, empty or only whitespace with a clear error before searching.",
}
