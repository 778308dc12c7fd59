package checks

var check8_3 = &Check{
	ID:      "8.3",
	Section: SectionProtocol,
	Title:   "an unknown method gets error -32601",
	Hint:    "Answer a method you do not implement with JSON-RPC error -32601 (method not found).",
}
