package checks

var check11 = &Check{
	ID:      "11",
	Section: SectionTool,
	Title:   "the query is a literal phrase: sign.in, (N2), [ and * match only themselves",
	Hint:    "Search for the query as plain text (substring search); never compile it as a regular expression or glob.",
}
