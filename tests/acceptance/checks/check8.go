package checks

var check8 = &Check{
	ID:      "8",
	Section: SectionAcceptance,
	Title:   "tool discovery and tool call over stdio with a separate process, clean stdout, exit on stdin close",
	Hint:    "Offer search_notes with a query property in tools/list, answer tools/call, keep stdout for JSON-RPC only (log to stderr) and exit when stdin closes.",
}
