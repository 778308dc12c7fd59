package checks

var check8_1 = &Check{
	ID:      "8.1",
	Section: SectionProtocol,
	Title:   "ping is answered with an empty result",
	Hint:    "Answer ping with {} (the official SDKs do this for you).",
}
