package checks

var check9 = &Check{
	ID:      "9",
	Section: SectionTool,
	Title:   "SIGN-IN and Sign-In find the same N2 passage as sign-in",
	Hint:    "Compare case-insensitively: lower-case (or case-fold) both the query and the text before matching, but return the passage as written.",
}
