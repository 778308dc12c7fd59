package checks

var check8_4 = &Check{
	ID:      "8.4",
	Section: SectionProtocol,
	Title:   "a call to an unknown tool gets a JSON-RPC error",
	Hint:    "Answer tools/call for a tool you do not offer with a JSON-RPC error (-32602), not a result.",
}
