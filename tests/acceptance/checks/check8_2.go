package checks

var check8_2 = &Check{
	ID:      "8.2",
	Section: SectionProtocol,
	Title:   "a string request id is echoed unchanged",
	Hint:    "Copy the request's id into the reply as it came, string or number.",
}
