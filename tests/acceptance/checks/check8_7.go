package checks

var check8_7 = &Check{
	ID:      "8.7",
	Section: SectionProtocol,
	Title:   "initialize declares the tools capability",
	Hint:    "Declare \"tools\": {} in the capabilities of your initialize result.",
}
