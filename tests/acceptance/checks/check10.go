package checks

var check10 = &Check{
	ID:      "10",
	Section: SectionTool,
	Title:   "a non-ASCII phrase in another case is found (CRÈME-BRÛLÉE finds crème-brûlée)",
	Hint:    "Use a Unicode-aware case fold (Go strings.EqualFold/ToLower, Python str.casefold, JavaScript toLowerCase), not an ASCII-only one.",
}
