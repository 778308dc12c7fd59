package checks

var check8_6 = &Check{
	ID:      "8.6",
	Section: SectionProtocol,
	Title:   "initialize with the older revision 2024-11-05 is answered with that revision",
	Hint:    "When initialize asks for a revision you support, answer with that same revision.",
}
