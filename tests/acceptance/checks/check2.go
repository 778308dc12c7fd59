package checks

var check2 = &Check{
	ID:      "2",
	Section: SectionAcceptance,
	Title:   "an absent phrase returns no matches and no invented passage",
	Hint:    "When nothing matches, return an empty list and a plain no-match message; never compose a passage that is not in a file.",
}
