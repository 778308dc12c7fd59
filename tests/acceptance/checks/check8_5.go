package checks

var check8_5 = &Check{
	ID:      "8.5",
	Section: SectionProtocol,
	Title:   "a line that is not JSON gets -32700 and the session lives on",
	Hint:    "Answer a line that does not parse with error -32700 (id null) and keep reading; do not exit.",
}
