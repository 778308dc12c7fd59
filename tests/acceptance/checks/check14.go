package checks

var check14 = &Check{
	ID:      "14",
	Section: SectionTool,
	Title:   "one read-only tool: tools/list offers search_notes and nothing that writes, before and after a note asks for more",
	Hint:    "Offer only search_notes (mark it readOnlyHint: true if you annotate it) and never add tools at run time.",
}
